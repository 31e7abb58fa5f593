import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def validate(model, loader):
    model.eval()
    with torch.no_grad():
        return sum(nn.functional.cross_entropy(model(x), y).item() for x, y in loader)


def fit(model, optimizer, loader, val_loader, epochs, rank):
    wrapped = DDP(model, device_ids=[rank])
    wrapped.train()
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(wrapped(x), y).backward()
            optimizer.step()
        validate(model, val_loader)  # expect: GPU004
