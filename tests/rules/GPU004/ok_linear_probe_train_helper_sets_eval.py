"""A linear probe on a frozen backbone: the training helper puts the model
in eval mode on purpose (frozen batch norm) before its own loop, so what
validate() leaves behind never reaches the training."""
import torch


def train(loader, model, criterion, optimizer):
    model.eval()
    for images, target in loader:
        loss = criterion(model(images), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(loader, model, criterion):
    model.eval()
    with torch.no_grad():
        return sum(criterion(model(x), y).item() for x, y in loader)


def main(model, loader, val_loader, criterion, optimizer, epochs):
    for epoch in range(epochs):
        train(loader, model, criterion, optimizer)
        print(validate(val_loader, model, criterion))
