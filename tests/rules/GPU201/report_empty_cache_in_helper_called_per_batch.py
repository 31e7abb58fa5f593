import gc

import torch
import torch.nn.functional as F

from data import loader
from model import Net


def free_memory():
    gc.collect()
    torch.cuda.empty_cache()  # expect: GPU201


model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(10):
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        free_memory()
