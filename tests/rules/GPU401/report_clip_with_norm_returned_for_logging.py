import torch
import torch.nn as nn

from data import loader
from model import Encoder
from log import writer

model = Encoder().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
scaler = torch.cuda.amp.GradScaler()
max_norm = 1.0

for step, batch in enumerate(loader):
    with torch.cuda.amp.autocast():
        loss = model(**batch).loss
    scaler.scale(loss).backward()
    total_norm = nn.utils.clip_grad_norm_(  # expect: GPU401
        model.parameters(),
        max_norm,
    )
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
    writer.add_scalar("grad_norm", total_norm, step)
