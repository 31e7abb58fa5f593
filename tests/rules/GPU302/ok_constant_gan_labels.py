import torch
import torch.nn as nn

from nets import Generator, Discriminator
from data import dataloader

device = "cuda"
netG, netD = Generator().to(device), Discriminator().to(device)
criterion = nn.BCELoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))

for epoch in range(25):
    for i, (real, _) in enumerate(dataloader):
        real = real.to(device)
        b = real.size(0)
        real_label = torch.full((b,), 1.0).to(device)
        fake_label = torch.zeros(b).cuda()
        z = torch.randn(b, 100, 1, 1, device=device)
        fake = netG(z)
        optD.zero_grad()
        lossD = criterion(netD(real).view(-1), real_label) + criterion(netD(fake.detach()).view(-1), fake_label)
        lossD.backward()
        optD.step()
        optG.zero_grad()
        lossG = criterion(netD(fake).view(-1), real_label)
        lossG.backward()
        optG.step()
