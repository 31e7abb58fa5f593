"""One backward per head over a shared forward, then a regularizer on the
shared features backpropagated through the same graph: every retained
pass is needed."""
import torch


def train(backbone, heads, loader, optimizer, criterion, weight=1e-3):
    for x, targets in loader:
        optimizer.zero_grad()
        features = backbone(x)
        for head, target in zip(heads, targets):
            loss = criterion(head(features), target)
            loss.backward(retain_graph=True)
        (weight * features.pow(2).mean()).backward()
        optimizer.step()
