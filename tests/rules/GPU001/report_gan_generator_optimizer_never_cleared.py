import torch
import torch.nn as nn

from models import Discriminator, Generator
from data import celeba_loader

netG, netD = Generator(nz=100).cuda(), Discriminator().cuda()
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

for epoch in range(25):
    for real, _ in celeba_loader(batch_size=128):
        real = real.cuda()
        b = real.size(0)
        noise = torch.randn(b, 100, 1, 1, device="cuda")
        fake = netG(noise)

        optD.zero_grad()
        d_real = netD(real).view(-1)
        d_fake = netD(fake.detach()).view(-1)
        lossD = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
        lossD.backward()
        optD.step()

        out = netD(fake).view(-1)
        lossG = bce(out, torch.ones_like(out))
        lossG.backward()  # expect: GPU001
        optG.step()
