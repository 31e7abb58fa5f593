import torch
import torch.nn as nn

from data import loader
from model import StackedGRU

model = StackedGRU(input_size=40, hidden_size=256, num_layers=3, num_classes=12).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()

hidden = None
for epoch in range(30):
    for x, y in loader:
        if hidden is None or hidden.size(1) != x.size(0):
            hidden = model.init_hidden(x.size(0))
        optimizer.zero_grad()
        logits, hidden = model(x.cuda(), hidden)  # expect: GPU102
        loss = criterion(logits, y.cuda())
        loss.backward()
        optimizer.step()
