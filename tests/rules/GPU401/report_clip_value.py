import torch
from torch import nn
from torch.amp import GradScaler

from dataset import loader
from model import Transformer

model = Transformer().to("cuda")
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
scaler = GradScaler("cuda")

for step, (src, tgt) in enumerate(loader):
    with torch.autocast("cuda", dtype=torch.float16):
        loss = model(src, tgt).loss
    scaler.scale(loss).backward()
    nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)  # expect: GPU401
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
