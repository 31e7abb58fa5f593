# A loaded model fine-tuned in the same script: its forwards feed a backward.
import torch
from torch import nn

from data import train_loader

model = torch.load("pretrained.pth")
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for x, y in train_loader:
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
