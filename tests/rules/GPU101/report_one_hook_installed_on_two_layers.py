"""Activations of two stages, kept for a plot at the end of training."""
import torch
import torch.nn.functional as F

kept = []


def keep(module, inputs, output):
    kept.append(output)  # expect: GPU101


def train(model, loader, optimizer):
    model.layer3.register_forward_hook(keep)
    model.layer4.register_forward_hook(keep)
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
