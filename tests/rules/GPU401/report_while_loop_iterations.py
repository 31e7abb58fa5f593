import torch

from data import InfiniteSampler
from model import Diffusion

model = Diffusion().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.0)
scaler = torch.amp.GradScaler()
sampler = iter(InfiniteSampler())
step = 0
while step < 100_000:
    batch = next(sampler).cuda()
    with torch.amp.autocast("cuda", dtype=torch.float16):
        loss = model.training_loss(batch)
    optimizer.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # expect: GPU401
    scaler.step(optimizer)
    scaler.update()
    step += 1
