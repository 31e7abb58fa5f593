# Autoencoder for flattened 64x64 grayscale patches.
import torch.nn as nn


class PatchAutoencoder(nn.Module):
    def __init__(self, dim=4096, code=128):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, 1024), nn.ReLU(), nn.Linear(1024, code))
        self.decoder = nn.Sequential(nn.Linear(code, 1024), nn.ReLU(), nn.Linear(1024, dim))

    def forward(self, x):
        return self.decoder(self.encoder(x))
