import torch


def train_one_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return sum((model(x).argmax(1) == y).sum().item() for x, y in loader)


def main(model, loader, val_loader, optimizer, epochs):
    for epoch in range(epochs):
        train_one_epoch(model, loader, optimizer)
        print(evaluate(model, val_loader))
