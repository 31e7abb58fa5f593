import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast

from data import loader
from model import EfficientNet

model = EfficientNet.from_name("efficientnet-b0", num_classes=200).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=90 * len(loader))
criterion = nn.CrossEntropyLoss()
scaler = GradScaler()

for epoch in range(90):
    for images, targets in loader:
        with autocast():
            loss = criterion(model(images.cuda()), targets.cuda())
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
