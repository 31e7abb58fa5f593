import torch
import torch.nn.functional as F

from data import InfiniteSampler
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
sampler = InfiniteSampler(batch_size=64)
step, max_steps, accum = 0, 20_000, 2

while step < max_steps:
    if step % accum == 0:
        optimizer.zero_grad(set_to_none=True)
    x, y = sampler.next_batch()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = F.cross_entropy(model(x.cuda()), y.cuda()) / accum
    loss.backward()
    if (step + 1) % accum == 0:
        optimizer.step()
    step += 1
