import torch
import torch.nn as nn
from torch.amp import GradScaler, autocast

from data import loader
from model import UNet

model = UNet().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
criterion = nn.BCEWithLogitsLoss()
scaler = GradScaler("cuda")

for epoch in range(100):
    for images, masks in loader:
        optimizer.zero_grad(set_to_none=True)
        with autocast("cuda"):
            loss = criterion(model(images.cuda()), masks.cuda())
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        del loss
        torch.cuda.empty_cache()  # expect: GPU201
