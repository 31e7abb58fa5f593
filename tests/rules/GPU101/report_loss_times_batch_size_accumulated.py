import torch
import torch.nn.functional as F

from data import train_loader
from model import WideResNet

model = WideResNet(depth=28, widen_factor=10).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)

for epoch in range(200):
    running, seen = 0.0, 0
    for inputs, targets in train_loader:
        inputs, targets = inputs.cuda(), targets.cuda()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
        running += loss * inputs.size(0)  # expect: GPU101
        seen += inputs.size(0)
    print(epoch, running.item() / seen)
