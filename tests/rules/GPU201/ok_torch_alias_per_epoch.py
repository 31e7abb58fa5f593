import torch as T
import torch.nn as nn

from data import loader
from model import MLP

model = MLP(784, 10).cuda()
opt = T.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(20):
    for x, y in loader:
        opt.zero_grad()
        loss = loss_fn(model(x.view(x.size(0), -1).cuda()), y.cuda())
        loss.backward()
        opt.step()
    T.cuda.empty_cache()
