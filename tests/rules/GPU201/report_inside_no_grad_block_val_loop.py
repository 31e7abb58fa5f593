import torch
import torch.nn.functional as F

from data import val_loader
from model import Net


def validate(model):
    model.eval()
    total = 0.0
    for x, y in val_loader:
        with torch.no_grad():
            total += F.cross_entropy(model(x.cuda()), y.cuda()).item()
            torch.cuda.empty_cache()  # expect: GPU201
    return total / len(val_loader)


model = Net().cuda()
print(validate(model))
