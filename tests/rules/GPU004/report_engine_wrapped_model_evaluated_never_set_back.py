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


def run(args, net, critic, train_loader, val_loader, epochs):
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
    critic_engine, _, _, _ = deepspeed.initialize(args=args, model=critic, model_parameters=critic.parameters())
    criterion = nn.CrossEntropyLoss()
    engine.train()
    for epoch in range(epochs):
        for x, y in train_loader:
            critic_engine.train()
            loss = criterion(engine(x), y)
            engine.backward(loss)
            engine.step()
        print(epoch, accuracy(net, val_loader))  # expect: GPU004
