import deepspeed
import torch
from torch import nn


def accuracy(net, loader):
    net.eval()
    hits = 0
    with torch.no_grad():
        for x, y in loader:
            hits += (net(x).argmax(1) == y).sum().item()
    return hits


def run(args, net, train_loader, val_loader, epochs):
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for x, y in train_loader:
            engine.train()
            loss = criterion(net(x), y)
            engine.backward(loss)
            engine.step()
        print(epoch, accuracy(net, val_loader))
