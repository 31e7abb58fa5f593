import torch
import torch.nn as nn

from data import loader
from model import Autoencoder

model = Autoencoder(latent_dim=32).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()

for epoch in range(30):
    for x, _ in loader:
        x = x.cuda()
        model.zero_grad()
        recon = model(x)
        loss = criterion(recon, x)
        loss.backward()
        optimizer.step()
