import torch
import torch.nn as nn

from nets import Generator, Discriminator
from data import loader

netG, netD = Generator().cuda(), Discriminator().cuda()
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
scaler = torch.cuda.amp.GradScaler()
bce = nn.BCEWithLogitsLoss()

for real in loader:
    real = real.cuda()
    z = torch.randn(real.size(0), 128, device="cuda")
    optD.zero_grad()
    with torch.autocast("cuda"):
        fake = netG(z)
        lossD = bce(netD(real), torch.ones(real.size(0), 1, device="cuda")) + bce(
            netD(fake.detach()), torch.zeros(real.size(0), 1, device="cuda"))
    scaler.scale(lossD).backward()
    scaler.unscale_(optD)
    nn.utils.clip_grad_norm_(netD.parameters(), 10.0)
    scaler.step(optD)
    optG.zero_grad()
    with torch.autocast("cuda"):
        lossG = bce(netD(fake), torch.ones(real.size(0), 1, device="cuda"))
    scaler.scale(lossG).backward()
    nn.utils.clip_grad_norm_(netG.parameters(), 10.0)  # expect: GPU401
    scaler.step(optG)
    scaler.update()
