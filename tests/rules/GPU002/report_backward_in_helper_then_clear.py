import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def forward_backward(x, y):
    loss = criterion(model(x.cuda()), y.cuda())
    loss.backward()
    return loss.item()


for epoch in range(10):
    for x, y in loader:
        loss_value = forward_backward(x, y)
        optimizer.zero_grad()  # expect: GPU002
        optimizer.step()
