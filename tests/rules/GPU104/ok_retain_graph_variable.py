import torch


def train(model, loader, optimizer, criterion, keep_graph):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_graph=keep_graph)
        optimizer.step()
