import gc

import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    for x, y in loader:
        optimizer.zero_grad()
        outputs = model(x.cuda())
        loss = criterion(outputs, y.cuda())
        loss.backward()
        optimizer.step()
        del outputs, loss
        gc.collect()
