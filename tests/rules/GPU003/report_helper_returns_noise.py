import torch
import torch.nn as nn

LATENT = 100


def make_noise(batch):
    return torch.randn(batch, LATENT, 1, 1)


def train_gan(netG, netD, loader, optD, optG, device, epochs=25):
    criterion = nn.BCELoss()
    for epoch in range(epochs):
        for real, _ in loader:
            real = real.to(device)
            noise = make_noise(real.size(0))
            noise.to(device)  # expect: GPU003
            fake = netG(noise)
            netD.zero_grad()
            out_real = netD(real).view(-1)
            out_fake = netD(fake.detach()).view(-1)
            lossD = criterion(out_real, torch.ones_like(out_real)) + criterion(out_fake, torch.zeros_like(out_fake))
            lossD.backward()
            optD.step()
            netG.zero_grad()
            out = netD(fake).view(-1)
            lossG = criterion(out, torch.ones_like(out))
            lossG.backward()
            optG.step()
