import torch
import torch.nn as nn
from torch.amp import GradScaler, autocast

from data import loader
from model import ConvNeXt

model = ConvNeXt().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=4e-3)
criterion = nn.CrossEntropyLoss()
scaler = GradScaler("cuda")
step_losses = []

for epoch in range(100):
    for images, labels in loader:
        optimizer.zero_grad(set_to_none=True)
        with autocast("cuda", dtype=torch.float16):
            loss = criterion(model(images.cuda()), labels.cuda())
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        step_losses.append(loss)  # expect: GPU101
