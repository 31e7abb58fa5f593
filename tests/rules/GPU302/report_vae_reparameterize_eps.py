import torch
import torch.nn.functional as F

from vae import Encoder, Decoder

device = "cuda"
encoder, decoder = Encoder(latent=64).to(device), Decoder(latent=64).to(device)
params = list(encoder.parameters()) + list(decoder.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3)


def train_epoch(loader):
    for images, _ in loader:
        images = images.to(device)
        mu, logvar = encoder(images)
        eps = torch.randn(mu.size(0), 64).to(device)  # expect: GPU302
        z = mu + eps * torch.exp(0.5 * logvar)
        recon = decoder(z)
        kld = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
        loss = F.binary_cross_entropy(recon, images) + kld
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
