import torch
import torch.nn as nn

from data import loader

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    for x, y in loader:
        noise = torch.randn(x.shape)
        loss = nn.functional.mse_loss(model(x + 0.01 * noise), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
