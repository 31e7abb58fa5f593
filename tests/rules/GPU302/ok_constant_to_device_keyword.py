import torch

from model import Net
from data import loader

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(30):
    for x, y in loader:
        x = x.cuda(non_blocking=True)
        y = y.cuda(non_blocking=True)
        margin = torch.ones(x.size(0)).to(device="cuda")
        loss = torch.nn.functional.margin_ranking_loss(model(x)[:, 0], model(x)[:, 1], margin)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
