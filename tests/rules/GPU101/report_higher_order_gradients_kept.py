# With create_graph=True the gradients carry a graph of their own: keeping them across iterations keeps it.
import torch
import torch.nn as nn


def gradient_penalties(critic: nn.Module, batches):
    penalties = []
    for real in batches:
        real = real.requires_grad_()
        score = critic(real).sum()
        g = torch.autograd.grad(score, real, create_graph=True)[0]
        penalties.append(g.norm(2, dim=1).mean())  # expect: GPU101
    return penalties
