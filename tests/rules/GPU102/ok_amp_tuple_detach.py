import torch
import torch.nn as nn
from torch.amp import GradScaler, autocast

from data import char_batches
from model import CharLSTM

model = CharLSTM(vocab=256, hidden=1024, layers=2).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
scaler = GradScaler("cuda")
criterion = nn.CrossEntropyLoss()

state = model.zero_state(batch_size=64)
for epoch in range(20):
    for x, y in char_batches(batch_size=64, seq_len=128):
        state = tuple(s.detach() for s in state)
        optimizer.zero_grad(set_to_none=True)
        with autocast("cuda", dtype=torch.float16):
            logits, state = model(x.cuda(), state)
            loss = criterion(logits.reshape(-1, 256), y.cuda().reshape(-1))
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
