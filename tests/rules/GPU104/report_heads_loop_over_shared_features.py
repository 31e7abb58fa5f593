"""One backward per head over a shared forward: every pass but the last
needs the graph again, the last keeps the backbone's activations alive
into the next step."""
import torch


def train(backbone, heads, loader, optimizer, criterion):
    for x, targets in loader:
        optimizer.zero_grad()
        features = backbone(x)
        for head, target in zip(heads, targets):
            loss = criterion(head(features), target)
            loss.backward(retain_graph=True)  # expect: GPU104
        optimizer.step()
