import torch


def train(backbone, heads, loader, optimizer, criterion):
    for x, targets in loader:
        optimizer.zero_grad()
        features = backbone(x)
        for head, target in zip(heads, targets):
            loss = criterion(head(features), target)
            loss.backward(retain_graph=True)
        optimizer.step()
