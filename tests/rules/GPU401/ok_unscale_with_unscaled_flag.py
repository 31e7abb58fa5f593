import torch

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters())
scaler = torch.amp.GradScaler("cuda")
use_amp = True

for x, y in loader:
    optimizer.zero_grad()
    with torch.autocast("cuda", enabled=use_amp):
        loss = model(x, y)
    if use_amp:
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
    else:
        loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 2.0)
    scaler.step(optimizer)
    scaler.update()
