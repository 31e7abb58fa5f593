import torch
import torch.nn as nn
from torch.amp import GradScaler, autocast

from dataset import make_loader
from net import UNet

loader = make_loader("train", batch_size=16)
model = UNet(in_channels=3, out_channels=1).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
criterion = nn.BCEWithLogitsLoss()
scaler = GradScaler("cuda")

for epoch in range(50):
    for images, masks in loader:
        images, masks = images.cuda(), masks.cuda()
        with autocast("cuda", dtype=torch.float16):
            logits = model(images)
            loss = criterion(logits, masks)
        scaler.scale(loss).backward()  # expect: GPU001
        scaler.step(optimizer)
        scaler.update()
    print(f"epoch {epoch} done, last loss {loss.item():.4f}")
