import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
opt = optimizer

for epoch in range(10):
    for x, y in loader:
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        opt.zero_grad()  # expect: GPU002
        optimizer.step()
