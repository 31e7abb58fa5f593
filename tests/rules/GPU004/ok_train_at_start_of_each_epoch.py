import torch
import torch.nn.functional as F


def validate(net, loader):
    net.eval()
    with torch.no_grad():
        return sum(F.cross_entropy(net(x), y).item() for x, y in loader)


def train(model, loader, val_loader, optimizer, epochs):
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            F.cross_entropy(model(x), y).backward()
            optimizer.step()
        print(validate(model, val_loader))
