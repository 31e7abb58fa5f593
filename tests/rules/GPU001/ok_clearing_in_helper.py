import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()


def reset_grads(net):
    for p in net.parameters():
        p.grad = None


for epoch in range(10):
    for x, y in loader:
        reset_grads(model)
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
