import torch
import torch.nn.functional as F

from data import train_loader, val_loader
from model import Net


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        hits = sum((model(x.cuda()).argmax(1) == y.cuda()).sum().item() for x, y in loader)
    return hits / len(loader.dataset)


model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(10):
    print(epoch, evaluate(model, val_loader))
    model.train()
    for x, y in train_loader:
        optimizer.zero_grad()
        logits = model(x.cuda())
        loss = F.cross_entropy(logits, y.cuda())
        loss.backward()
        optimizer.step()
