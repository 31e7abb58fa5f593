import torch
from torch import nn

grad_norms = []


def record_grad(module, grad_input, grad_output):
    grad_norms.append(grad_output[0])


def train(model: nn.Module, loader, optimizer):
    model.head.register_full_backward_hook(record_grad)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
