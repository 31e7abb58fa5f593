import torch
from torch import nn


class LinearProbe(nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.fc = nn.Linear(dim, classes)

    def forward(self, x):
        return self.fc(x)


def validate(probe, loader):
    probe.eval()
    with torch.no_grad():
        return sum(nn.functional.cross_entropy(probe(x), y).item() for x, y in loader)


def train(features, labels, val_loader, dim, classes):
    probe = LinearProbe(dim, classes)
    optimizer = torch.optim.SGD(probe.parameters(), lr=0.1)
    probe.train()
    for epoch in range(10):
        for x, y in zip(features, labels):
            optimizer.zero_grad()
            nn.functional.cross_entropy(probe(x), y).backward()
            optimizer.step()
        validate(probe, val_loader)  # expect: GPU004
