import torch
import torch.nn as nn

from nets import Generator, Discriminator

nz = 100
netG, netD = Generator(nz).cuda(), Discriminator().cuda()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterion = nn.BCELoss()


def train(dataloader, epochs):
    for epoch in range(epochs):
        for i, (real, _) in enumerate(dataloader):
            real = real.cuda()
            b = real.size(0)
            z = torch.randn(b, nz, 1, 1).cuda()  # expect: GPU302
            fake = netG(z)
            optD.zero_grad()
            d_real = netD(real).view(-1)
            d_fake = netD(fake.detach()).view(-1)
            loss_d = criterion(d_real, torch.ones_like(d_real)) + criterion(d_fake, torch.zeros_like(d_fake))
            loss_d.backward()
            optD.step()
            optG.zero_grad()
            out = netD(fake).view(-1)
            loss_g = criterion(out, torch.ones_like(out))
            loss_g.backward()
            optG.step()
