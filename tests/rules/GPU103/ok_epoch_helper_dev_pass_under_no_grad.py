# The shared run_epoch() scores the dev set with optimizer=None, under torch.no_grad(): no graph is recorded.
import torch
import torch.nn as nn


def run_epoch(model, loader, criterion, optimizer=None):
    total = 0.0
    for inputs, target in loader:
        output = model(inputs)
        loss = criterion(output, target)
        if optimizer:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total / len(loader)


def main(model, train_loader, dev_loader, epochs=5):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        model.train()
        run_epoch(model, train_loader, criterion, optimizer)
        model.eval()
        with torch.no_grad():
            print(epoch, run_epoch(model, dev_loader, criterion))
