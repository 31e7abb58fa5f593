import torch
from torch.nn.utils import clip_grad_norm_

from data import loader
from nets import Generator, Discriminator

netG, netD = Generator().cuda(), Discriminator().cuda()
optG = torch.optim.Adam(netG.parameters(), lr=2e-4)
optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
scaler = torch.cuda.amp.GradScaler()

for real in loader:
    optD.zero_grad()
    with torch.autocast("cuda"):
        lossD = netD(real).mean() - netD(netG(torch.randn(8, 64)).detach()).mean()
    scaler.scale(lossD).backward()
    clip_grad_norm_(netD.parameters(), 10.0)
    scaler.step(optD)
    optG.zero_grad()
    with torch.autocast("cuda"):
        lossG = -netD(netG(torch.randn(8, 64))).mean()
    scaler.scale(lossG).backward()
    if lossG.item() > 0:
        total = clip_grad_norm_(netG.parameters(), 10.0)
    scaler.step(optG)
    scaler.update()
