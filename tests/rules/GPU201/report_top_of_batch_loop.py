import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()

for epoch in range(10):
    for inputs, labels in loader:
        torch.cuda.empty_cache()  # expect: GPU201
        optimizer.zero_grad()
        loss = criterion(model(inputs.cuda()), labels.cuda())
        loss.backward()
        optimizer.step()
