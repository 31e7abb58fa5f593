import torch

from training.amp_utils import unscale, unscale_and_clip
from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
scaler = torch.cuda.amp.GradScaler()

for inputs, targets in loader:
    optimizer.zero_grad()
    with torch.autocast("cuda"):
        loss = torch.nn.functional.mse_loss(model(inputs), targets)
    scaler.scale(loss).backward()
    norm = unscale_and_clip(scaler, optimizer, model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()

for inputs, targets in loader:
    optimizer.zero_grad()
    with torch.autocast("cuda"):
        loss = torch.nn.functional.mse_loss(model(inputs), targets)
    scaler.scale(loss).backward()
    unscale(scaler, optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
