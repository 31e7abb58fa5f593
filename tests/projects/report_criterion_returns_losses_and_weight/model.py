# Fully connected VAE for 28x28 images.
import torch
import torch.nn as nn


class VAE(nn.Module):
    def __init__(self, latent=20):
        super().__init__()
        self.enc = nn.Sequential(nn.Flatten(), nn.Linear(784, 400), nn.ReLU())
        self.mu = nn.Linear(400, latent)
        self.logvar = nn.Linear(400, latent)
        self.dec = nn.Sequential(nn.Linear(latent, 400), nn.ReLU(), nn.Linear(400, 784), nn.Sigmoid())

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z).view_as(x), mu, logvar
