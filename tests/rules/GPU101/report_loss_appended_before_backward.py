import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
recent = []

for step, (x, y) in enumerate(loader):
    optimizer.zero_grad()
    loss = criterion(model(x.cuda()), y.cuda())
    recent.append(loss)  # expect: GPU101
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        window = recent[-100:]
        print(step, sum(l.item() for l in window) / len(window))
