# A VGG feature extractor for a perceptual metric; its weights never
# train, so __init__ freezes every parameter.
import torch.nn as nn
import torchvision


class VGGFeatures(nn.Module):
    def __init__(self, layers=(3, 8, 15, 22)):
        super().__init__()
        vgg = torchvision.models.vgg16(weights="IMAGENET1K_V1").features
        self.slices = nn.ModuleList(vgg[a:b] for a, b in zip((0,) + layers[:-1], layers))
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, x):
        feats = []
        for block in self.slices:
            x = block(x)
            feats.append(x)
        return feats


class FrozenEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torchvision.models.resnet18(weights="IMAGENET1K_V1")
        self.requires_grad_(False)

    def forward(self, x):
        return self.net(x)


class CLIPImageFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = torchvision.models.vit_b_16(weights="IMAGENET1K_V1")
        self.backbone.heads = nn.Identity()
        self._freeze()

    def _freeze(self):
        for param in self.backbone.parameters():
            param.requires_grad = False

    def forward(self, images):
        return self.backbone(images)


class InceptionPool(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = torchvision.models.inception_v3(weights="IMAGENET1K_V1", aux_logits=True)
        self.model.fc = nn.Identity()
        for p in self.model.parameters():
            p.requires_grad = False

    def forward(self, x):
        return self.model(x)
