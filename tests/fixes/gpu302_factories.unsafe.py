import torch
import torch.nn.functional as F

from data import loader
from model import Net

device = torch.device("cuda")
model = Net().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        h0 = torch.zeros(2, x.size(0), 256, device=device)
        ones = torch.ones(x.size(0), device="cuda")
        steps = torch.arange(x.size(1), device=device)
        noise = torch.randn(x.shape, device=device)
        half = torch.zeros(x.size(0)).to(device, torch.float16)
        pinned = torch.zeros(x.size(0)).cuda(non_blocking=True)
        loss = F.mse_loss(model(x + noise, h0, steps), y) * ones.mean() + half.sum() + pinned.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
