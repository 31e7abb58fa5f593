import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
skipped = 0

for step, (x, y) in enumerate(loader):
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    if not torch.isfinite(grad_norm):
        optimizer.zero_grad(set_to_none=True)
        skipped += 1
        continue
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
print("skipped", skipped)
