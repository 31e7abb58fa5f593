import torch

from model import Net
from data import loader

model = Net().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
class_weights = [1.0, 2.5, 0.7]

for x, y in loader:
    x, y = x.cuda(), y.cuda()
    w = torch.FloatTensor(class_weights).cuda()
    loss = torch.nn.functional.cross_entropy(model(x), y, weight=w)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
