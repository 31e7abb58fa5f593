import torch


def generator_step(netG, netD, z, optG, criterion, ones):
    optG.zero_grad()
    loss = criterion(netD(netG(z)), ones)
    loss.backward()
    optG.step()


def train(netG, netD, loader, optD, optG, criterion, nz):
    for real, _ in loader:
        z = torch.randn(real.size(0), nz, device=real.device)
        ones = torch.ones(real.size(0), 1, device=real.device)
        optD.zero_grad()
        d_loss = criterion(netD(real), ones)
        d_loss.backward(retain_graph=True)
        optD.step()
        generator_step(netG, netD, z, optG, criterion, ones)
