import deepspeed
from torch import nn

from helpers import *


def main(args, net, train_loader, test_loader):
    engine, _, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
    criterion = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        for x, y in train_loader:
            engine.train()
            loss = criterion(net(x), y)
            engine.backward(loss)
            engine.step()
        test(epoch, net, test_loader)
