import torch
import torch.nn.functional as F

from loaders import build_loader
from gpt import GPT

model = GPT.from_config("small").cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95))
scaler = torch.cuda.amp.GradScaler(enabled=True)
accumulation_steps = 8

for i, (x, y) in enumerate(build_loader()):
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1)) / accumulation_steps
    scaler.scale(loss).backward()
    if (i + 1) % accumulation_steps == 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # expect: GPU401
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
