import torch

from config import args
from models import build_model
from data import loader

model = build_model(args).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
scaler = torch.cuda.amp.GradScaler(enabled=args.amp)

for epoch in range(args.epochs):
    for x, y in loader:
        with torch.autocast("cuda", enabled=args.amp):
            loss = model(x.cuda(), y.cuda())
        optimizer.zero_grad()
        if args.amp:
            scaler.scale(loss).backward()
        else:
            loss.backward()
        if args.clip_grad > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip_grad)  # expect: GPU401
        scaler.step(optimizer)
        scaler.update()
