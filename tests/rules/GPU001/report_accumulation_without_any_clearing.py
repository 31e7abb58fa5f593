import torch
import torch.nn as nn

from data import loader
from model import build_model

accum_steps = 8
model = build_model().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(10):
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x.cuda()), y.cuda()) / accum_steps
        loss.backward()  # expect: GPU001
        if (i + 1) % accum_steps == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
            optimizer.step()
