import torch

from model import Net
from data import loader

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters())
history = []

for x, y in loader:
    x, y = x.cuda(), y.cuda()
    loss = torch.nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    counts = torch.zeros(10)
    counts.index_add_(0, y.cpu(), torch.ones(y.size(0)))
    history.append(counts)
