import torch
import torch.nn as nn

from data import dataloader
from models import Discriminator, Generator

netG, netD = Generator().cuda(), Discriminator().cuda()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterion = nn.BCELoss()

for epoch in range(5):
    for real, _ in dataloader:
        real = real.cuda()
        noise = torch.randn(real.size(0), 100, 1, 1, device="cuda")
        fake = netG(noise)

        netD.zero_grad()
        out_real = netD(real).view(-1)
        out_fake = netD(fake.detach()).view(-1)
        errD = criterion(out_real, torch.ones_like(out_real)) + criterion(out_fake, torch.zeros_like(out_fake))
        errD.backward()
        optimizerD.step()

        netG.zero_grad()
        out = netD(fake).view(-1)
        errG = criterion(out, torch.ones_like(out))
        errG.backward()
        optimizerG.step()
