import torch
import torch.nn as nn
from torch.amp import GradScaler, autocast

from data import loader
from model import SegFormer

model = SegFormer(num_classes=19).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-5)
criterion = nn.CrossEntropyLoss(ignore_index=255)
scaler = GradScaler("cuda")

for epoch in range(80):
    for images, masks in loader:
        with autocast("cuda"):
            loss = criterion(model(images.cuda()), masks.cuda())
        scaler.scale(loss).backward()
        optimizer.zero_grad()  # expect: GPU002
        scaler.step(optimizer)
        scaler.update()
