import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def train_step(x, y):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    return loss


losses = []
for epoch in range(10):
    for x, y in loader:
        losses.append(train_step(x, y))  # expect: GPU101
print(sum(l.item() for l in losses) / len(losses))
