import torch
import torch.nn.functional as F

from data import train_loader, val_loader
from model import Net


def validate(model, val_loader):
    total = 0.0
    for x, y in val_loader:
        out = model(x.cuda())  # pedantic: GPU103
        total += F.cross_entropy(out, y.cuda()).item()
    return total / len(val_loader)


model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(10):
    for x, y in train_loader:
        optimizer.zero_grad()
        F.cross_entropy(model(x.cuda()), y.cuda()).backward()
        optimizer.step()
    print(epoch, validate(model, val_loader))
