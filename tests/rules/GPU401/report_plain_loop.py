import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast

from data import train_loader
from model import Classifier

model = Classifier().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
scaler = GradScaler()

for epoch in range(10):
    for images, labels in train_loader:
        optimizer.zero_grad(set_to_none=True)
        with autocast():
            loss = criterion(model(images.cuda()), labels.cuda())
        scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # expect: GPU401
        scaler.step(optimizer)
        scaler.update()
