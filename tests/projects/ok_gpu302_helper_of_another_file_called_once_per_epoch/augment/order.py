import torch


def epoch_order(n, device):
    """A fresh order of the training examples, drawn once per epoch."""
    return torch.randperm(n).to(device)
