import torch

HELP = "pass retain_graph=True only when a second backward follows"


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()  # not retain_graph=True: nothing reuses the graph
        optimizer.step()
