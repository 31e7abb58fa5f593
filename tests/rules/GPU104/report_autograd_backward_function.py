import torch
import torch.nn.functional as F


def train(model, loader, optimizer):
    for x, y in loader:
        loss = F.nll_loss(model(x), y)
        optimizer.zero_grad()
        torch.autograd.backward(loss, retain_graph=True)  # expect: GPU104
        optimizer.step()
