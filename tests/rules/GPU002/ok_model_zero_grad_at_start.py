import torch
import torch.nn as nn

from data import loader
from model import Autoencoder

model = Autoencoder().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.BCELoss()

for epoch in range(20):
    for x, _ in loader:
        x = x.cuda().view(x.size(0), -1)
        model.zero_grad()
        recon = model(x)
        loss = criterion(recon, x)
        loss.backward()
        optimizer.step()
