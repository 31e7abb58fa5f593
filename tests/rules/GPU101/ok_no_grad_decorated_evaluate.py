import torch
import torch.nn.functional as F

from data import train_loader, val_loader
from model import Net


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    losses = []
    for x, y in loader:
        losses.append(F.cross_entropy(model(x.cuda()), y.cuda()))
    model.train()
    return torch.stack(losses).mean().item()


model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(10):
    for x, y in train_loader:
        optimizer.zero_grad()
        F.cross_entropy(model(x.cuda()), y.cuda()).backward()
        optimizer.step()
    print(epoch, evaluate(model, val_loader))
