import torch
from torch import nn


def evaluate(network, loader):
    network.eval()
    with torch.no_grad():
        return [network(x).argmax(1) for x, _ in loader]


def train(net, loader, val_loader, optimizer, epochs):
    model = nn.DataParallel(net).cuda()
    model.train()
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x.cuda()), y.cuda()).backward()
            optimizer.step()
        evaluate(model, val_loader)  # expect: GPU004
