"""The discriminator's loss goes through G's output without detaching it;
the generator's backward later in the iteration needs that graph again."""
import torch
from torch import nn


def train(netG, netD, loader, optG, optD, nz, device):
    bce = nn.BCEWithLogitsLoss()
    for real, _ in loader:
        real = real.to(device)
        z = torch.randn(real.size(0), nz, device=device)
        fake = netG(z)
        optD.zero_grad()
        loss_d = bce(netD(real), torch.ones(real.size(0), 1, device=device)) + bce(
            netD(fake), torch.zeros(real.size(0), 1, device=device))
        loss_d.backward(retain_graph=True)
        optD.step()
        optG.zero_grad()
        loss_g = bce(netD(fake), torch.ones(real.size(0), 1, device=device))
        loss_g.backward()
        optG.step()
