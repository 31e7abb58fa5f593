# The state is rewrapped as Variable(h.data) each batch.
import torch
from torch import nn
from torch.autograd import Variable

gru = nn.GRU(8, 16)
optimizer = torch.optim.SGD(gru.parameters(), lr=0.1)
h = torch.zeros(1, 3, 16)

for step in range(20):
    x = torch.randn(5, 3, 8)
    h = Variable(h.data)
    optimizer.zero_grad()
    out, h = gru(x, h)
    out.pow(2).mean().backward()
    optimizer.step()
