import argparse

import torch
import torch.nn.functional as F

from data import loader
from model import Net

parser = argparse.ArgumentParser()
parser.add_argument("--empty-cache-steps", type=int, default=500)
args = parser.parse_args()

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step, (x, y) in enumerate(loader):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    if (step + 1) % args.empty_cache_steps == 0:
        torch.cuda.empty_cache()
