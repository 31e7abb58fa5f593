import torch
import torch.nn as nn

from data import dataloader
from models import Discriminator, Generator

netG, netD = Generator().cuda(), Discriminator().cuda()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

for epoch in range(25):
    for real, _ in dataloader:
        real = real.cuda()
        fake = netG(torch.randn(real.size(0), 100, 1, 1, device="cuda"))

        optD.zero_grad()
        d_real, d_fake = netD(real), netD(fake.detach())
        lossD = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
        lossD.backward()
        optD.step()

        optG.zero_grad()
        g_out = netD(fake)
        lossG = bce(g_out, torch.ones_like(g_out))
        lossG.backward()
        optG.step()
