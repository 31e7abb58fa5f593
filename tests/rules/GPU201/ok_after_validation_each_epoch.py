import torch
import torch.nn.functional as F

from data import train_loader, val_loader
from model import Net


@torch.no_grad()
def validate(model, loader):
    model.eval()
    total = 0.0
    for x, y in loader:
        total += F.cross_entropy(model(x.cuda()), y.cuda()).item()
    return total / len(loader)


model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(30):
    model.train()
    for x, y in train_loader:
        optimizer.zero_grad()
        F.cross_entropy(model(x.cuda()), y.cuda()).backward()
        optimizer.step()
    val_loss = validate(model, val_loader)
    torch.cuda.empty_cache()
    print(epoch, val_loss)
