import torch


def train(model, loader, optimizer, criterion, debug=False):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        if debug:
            loss.backward(retain_graph=True)  # expect: GPU104
        else:
            loss.backward()
        optimizer.step()
