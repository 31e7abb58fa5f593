import torch
import torch.nn.functional as F


def train(model, loader, optimizer, device):
    graph_roots = []
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        loss = F.cross_entropy(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        graph_roots.append(loss.grad_fn)  # expect: GPU101
    return graph_roots
