"""Gradients accumulated over an epoch's batches, then cleared right
before the epoch's one step: the step applies zeros."""
import torch
import torch.nn.functional as F


def full_batch_descent(model, loader, optimizer, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            F.cross_entropy(model(x), y).backward()
        optimizer.zero_grad()  # expect: GPU002
        optimizer.step()
