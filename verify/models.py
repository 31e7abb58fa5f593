"""models.py — small models for the reproductions, in plain PyTorch (no
torchvision, nothing downloaded)."""
import torch
from torch import nn


class Bottleneck(nn.Module):
    """1x1 → 3x3 → 1x1 convolutions with a shortcut, as in ResNet-50."""

    expansion = 4

    def __init__(self, inputs, width, stride):
        super().__init__()
        outputs = width * self.expansion
        self.body = nn.Sequential(
            nn.Conv2d(inputs, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, outputs, 1, bias=False), nn.BatchNorm2d(outputs))
        self.shortcut = nn.Identity()
        if stride != 1 or inputs != outputs:
            self.shortcut = nn.Sequential(
                nn.Conv2d(inputs, outputs, 1, stride, bias=False), nn.BatchNorm2d(outputs))

    def forward(self, x):
        return torch.relu(self.body(x) + self.shortcut(x))


class Basic(nn.Module):
    """Two 3x3 convolutions with a shortcut, as in ResNet-18."""

    expansion = 1

    def __init__(self, inputs, width, stride):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(inputs, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, 1, 1, bias=False), nn.BatchNorm2d(width))
        self.shortcut = nn.Identity()
        if stride != 1 or inputs != width:
            self.shortcut = nn.Sequential(
                nn.Conv2d(inputs, width, 1, stride, bias=False), nn.BatchNorm2d(width))

    def forward(self, x):
        return torch.relu(self.body(x) + self.shortcut(x))


def resnet(block, depths, classes=1000):
    """A ResNet of `block`s, `depths` blocks per stage (ImageNet layout)."""
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
              nn.MaxPool2d(3, 2, 1)]
    inputs = 64
    for stage, depth in enumerate(depths):
        width = 64 << stage
        for i in range(depth):
            layers.append(block(inputs, width, 2 if stage > 0 and i == 0 else 1))
            inputs = width * block.expansion
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(inputs, classes)]
    return nn.Sequential(*layers)


def resnet50():
    return resnet(Bottleneck, [3, 4, 6, 3])


def resnet18():
    return resnet(Basic, [2, 2, 2, 2])


def small_convnet(classes=10):
    """Two 3x3 convolutions with batch norm, then dropout and a linear
    classifier: a CIFAR-sized net whose training and eval modes differ."""
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.5), nn.Linear(64, classes))


class PreNormBlock(nn.Module):
    """A transformer's feed-forward half: x + MLP(LayerNorm(x))."""

    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))
