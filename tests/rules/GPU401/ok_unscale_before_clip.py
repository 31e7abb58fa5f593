import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast

from data import train_loader
from model import Classifier

model = Classifier().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
scaler = GradScaler()

for images, labels in train_loader:
    optimizer.zero_grad(set_to_none=True)
    with autocast():
        loss = criterion(model(images.cuda()), labels.cuda())
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
