import torch
from torch import nn


def freeze_bn(model):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def train(model, loader, optimizer):
    model.train()
    for epoch in range(5):
        freeze_bn(model)
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
