import torch

from data import loader, val_loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters())
scaler = torch.cuda.amp.GradScaler()

for x, y in loader:
    optimizer.zero_grad()
    with torch.autocast("cuda"):
        loss = model(x, y)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()


def probe_gradient_norm(model, batch):
    model.zero_grad()
    model(*batch).backward()
    return torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
