import torch
from torch import nn

from data import train_loader, val_loader


def accuracy(m, loader):
    m.eval()
    with torch.no_grad():
        hits = sum((m(x).argmax(1) == y).sum().item() for x, y in loader)
    return hits / len(loader.dataset)


model = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.3), nn.Linear(256, 10))
optimizer = torch.optim.Adam(model.parameters())
model.train()
for epoch in range(20):
    for x, y in train_loader:
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    print(epoch, accuracy(model, val_loader))  # expect: GPU004
