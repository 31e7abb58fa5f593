import torch
import torch.nn as nn

from data import loader
from model import Regressor

model = Regressor().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
criterion = nn.HuberLoss()

for epoch in range(100):
    epoch_loss = 0
    for features, target in loader:
        optimizer.zero_grad()
        loss = criterion(model(features.cuda()), target.cuda())
        loss.backward()
        optimizer.step()
        epoch_loss = epoch_loss + loss  # expect: GPU101
    print(epoch, float(epoch_loss) / len(loader))
