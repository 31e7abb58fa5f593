import torch

from utils import DynamicLossScaler
from data import loader
from model import Net

model = Net().cuda().half()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
scaler = DynamicLossScaler(init_scale=1024)

for x, y in loader:
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
