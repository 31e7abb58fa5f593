import torch
from torch import nn

feature_bank = []


def bank_features(module, inputs, output):
    feature_bank.append(output.detach().cpu())


def train(model: nn.Module, loader, optimizer):
    model.avgpool.register_forward_hook(bank_features)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
