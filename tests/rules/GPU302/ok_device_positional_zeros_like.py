import torch

from model import VAE
from data import loader

model = VAE().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(50):
    for x, _ in loader:
        x = x.cuda()
        mu, logvar = model.encode(x)
        eps = torch.randn_like(mu)
        prior = torch.zeros_like(mu).cuda()
        z = mu + eps * (0.5 * logvar).exp()
        loss = torch.nn.functional.mse_loss(model.decode(z), x) + (mu - prior).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
