import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
skipped = 0

for x, y in loader:
    try:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
    except torch.cuda.OutOfMemoryError:
        skipped += 1
        optimizer.zero_grad(set_to_none=True)
        torch.cuda.empty_cache()
print("skipped", skipped)
