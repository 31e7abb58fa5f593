import torch

from model import Net
from data import loader

torch.cuda.set_device(0)
model = Net().cuda(0)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(10):
    for x, y in loader:
        x, y = x.cuda(0), y.cuda(0)
        order = torch.randperm(x.size(0)).cuda(0)  # expect: GPU302
        loss = torch.nn.functional.cross_entropy(model(x[order]), y[order])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
