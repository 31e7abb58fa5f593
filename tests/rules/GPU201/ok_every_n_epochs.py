import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(100):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
    if epoch % 5 == 0:
        torch.save(model.state_dict(), f"ckpt_{epoch}.pt")
        torch.cuda.empty_cache()
