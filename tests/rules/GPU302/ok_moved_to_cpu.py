import torch

from model import Net
from data import loader

model = Net().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
log = []

for step, (x, y) in enumerate(loader):
    loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    marker = torch.zeros(1).to(torch.float64)
    log.append(marker)
    if step % 100 == 0:
        print(step, loss.item())
