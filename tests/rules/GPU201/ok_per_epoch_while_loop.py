import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
epoch, patience, best, bad_epochs = 0, 5, float("inf"), 0

while bad_epochs < patience:
    total = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        total += loss.item()
    torch.cuda.empty_cache()
    if total < best:
        best, bad_epochs = total, 0
    else:
        bad_epochs += 1
    epoch += 1
