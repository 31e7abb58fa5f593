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
        optimizer.zero_grad(set_to_none=True)
        with autocast("cuda"):
            loss = criterion(model(images.cuda()), masks.cuda())
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
