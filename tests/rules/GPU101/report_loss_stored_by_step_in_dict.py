import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_by_step = {}

for step, (x, y) in enumerate(loader):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    loss_by_step[step] = loss  # expect: GPU101

worst = max(loss_by_step, key=lambda s: loss_by_step[s].item())
print("worst step", worst)
