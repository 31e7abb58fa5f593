import torch
import torch.nn.functional as F

from data import val_loader
from model import Net

model = Net().cuda()
model.eval()

total = 0.0
with torch.set_grad_enabled(True):
    for x, y in val_loader:
        out = model(x.cuda())  # expect: GPU103
        total += F.cross_entropy(out, y.cuda()).item()
print(total / len(val_loader))
