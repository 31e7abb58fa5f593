# The loop trains the model with one helper and scores it with another that
# has neither .eval() nor no_grad: every scoring forward builds a graph.
import torch


def train_epoch(model, criterion, optimizer, loader):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


def test_epoch(model, criterion, loader):
    total, correct = 0.0, 0
    for x, y in loader:
        y_pred = model(x)  # expect: GPU103
        total += criterion(y_pred, y).item()
        correct += (y_pred.argmax(1) == y).sum().item()
    return total / len(loader), correct


def fit(model, criterion, optimizer, train_loader, test_loader, epochs):
    for epoch in range(epochs):
        train_epoch(model, criterion, optimizer, train_loader)
        print(epoch, test_epoch(model, criterion, test_loader))
