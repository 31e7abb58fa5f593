import torch
import torch.nn as nn

from data import train_loader
from model import build_model

accum_steps = 4
model = build_model().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)

model.train()
optimizer.zero_grad()
for i, (images, labels) in enumerate(train_loader):
    outputs = model(images.cuda())
    loss = criterion(outputs, labels.cuda()) / accum_steps
    loss.backward()
    if (i + 1) % accum_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
