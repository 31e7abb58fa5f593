# DCGAN-style loop: only the generator module is cleared, the discriminator's optimizer accumulates.
import torch
import torch.nn as nn
import torch.optim as optim

from models import Discriminator, Generator

netG, netD = Generator().cuda(), Discriminator().cuda()
criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))

for epoch in range(25):
    for real, _ in dataloader:
        real = real.cuda()
        noise = torch.randn(real.size(0), 100, 1, 1, device="cuda")
        fake = netG(noise)
        errD = criterion(netD(real).view(-1), torch.ones(real.size(0), device="cuda")) + \
            criterion(netD(fake.detach()).view(-1), torch.zeros(real.size(0), device="cuda"))
        errD.backward()  # expect: GPU001
        optimizerD.step()
        netG.zero_grad()
        errG = criterion(netD(fake).view(-1), torch.ones(real.size(0), device="cuda"))
        errG.backward()
        optimizerG.step()
