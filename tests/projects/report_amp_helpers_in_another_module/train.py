import torch
from torch.nn.utils import clip_grad_norm_

from training.amp_utils import scaled_backward
from training.engine import train_one_epoch
from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
scaler = torch.cuda.amp.GradScaler()

for epoch in range(3):
    train_one_epoch(model, loader, optimizer, scaler)

for inputs, targets in loader:
    optimizer.zero_grad()
    with torch.autocast("cuda"):
        loss = torch.nn.functional.mse_loss(model(inputs), targets)
    scaled_backward(loss, scaler)
    clip_grad_norm_(model.parameters(), 1.0)  # expect: GPU401
    scaler.step(optimizer)
    scaler.update()
