import torch

from options import opts
from model import SpeechModel
from data import train_batches

model = SpeechModel(opts).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=opts.lr)
scaler = torch.cuda.amp.GradScaler() if opts.fp16 else None

for batch in train_batches():
    optimizer.zero_grad()
    with torch.autocast("cuda", enabled=opts.fp16):
        loss = model(batch)
    if scaler is not None:
        scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), opts.grad_clip)  # expect: GPU401
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), opts.grad_clip)
        optimizer.step()
