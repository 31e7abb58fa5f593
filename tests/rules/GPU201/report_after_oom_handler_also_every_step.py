import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for x, y in loader:
    try:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
    except torch.cuda.OutOfMemoryError:
        print("OOM, skipping batch")
    torch.cuda.empty_cache()  # expect: GPU201
