import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda().half()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
loss_scale = 2.0 ** 16


def grads_overflowed(net):
    return any(not torch.isfinite(p.grad).all() for p in net.parameters() if p.grad is not None)


for x, y in loader:
    loss = criterion(model(x.cuda().half()), y.cuda())
    (loss * loss_scale).backward()
    if grads_overflowed(model):
        optimizer.zero_grad()
        loss_scale /= 2.0
    else:
        for p in model.parameters():
            p.grad.div_(loss_scale)
        optimizer.step()
        optimizer.zero_grad()
