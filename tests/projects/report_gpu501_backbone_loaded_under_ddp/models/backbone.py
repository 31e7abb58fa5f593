import torch
from torch import nn


class ResNetBackbone(nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.stem = nn.Conv2d(3, 64, 7, stride=2, padding=3)
        self.depth = depth

    def forward(self, x):
        return self.stem(x)


def resnet50(pretrained=False, path="initmodel/resnet50.pth"):
    model = ResNetBackbone(50)
    if pretrained:
        model.load_state_dict(torch.load(path), strict=False)  # pedantic: GPU501
    return model
