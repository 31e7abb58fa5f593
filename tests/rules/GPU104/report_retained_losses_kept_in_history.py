import torch
import torch.nn.functional as F


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)  # expect: GPU104
        optimizer.step()
        history.append(loss)  # expect: GPU101
    return history
