import torch
import torch.nn.functional as F

from data import loader
from model import LSTMModel

model = LSTMModel().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=20)

for inputs, targets in loader:
    optimizer.zero_grad()
    loss = F.cross_entropy(model(inputs), targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    optimizer.step()
