import torch

from loaders import build_loader
from gpt import GPT

model = GPT.from_config("small").cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
scaler = torch.cuda.amp.GradScaler()
accumulation_steps = 4

for i, (x, y) in enumerate(build_loader()):
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        loss = model(x, y) / accumulation_steps
    scaler.scale(loss).backward()
    if (i + 1) % accumulation_steps == 0:
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
