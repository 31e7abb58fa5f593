import torch
import torch.nn.functional as F


def train(model, loader, optimizer):
    losses, total = [], 0.0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())
        total += loss.detach()
    print(sum(l.item() for l in losses) / len(losses), total / len(losses))
