import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(width, 10)

    def forward(self, x):
        return self.fc(self.pool(self.stem(x).relu()).flatten(1))
