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
        h0 = torch.zeros(2, x.size(0), 256).to(device)
        noise = torch.randn(x.shape, device=device)
        keep = torch.rand(x.size(0), 1, device="cuda")
        steps = torch.randint(0, 1000, (x.size(0),), device=device)
        order = torch.randperm(x.size(0)).to(device, torch.long)
        jitter = torch.randn(x.size(0)).cuda(non_blocking=True)
        x = (x + noise)[order] * (keep > 0.1) + jitter[:, None]
        loss = F.mse_loss(model(x, h0, steps), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
