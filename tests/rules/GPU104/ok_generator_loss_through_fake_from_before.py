"""The discriminator's loss runs through the generator's output without
detaching it, and the generator's loss reuses that same output: its
backward goes through the graph the first backward retained."""
import torch


def train(netG, netD, optimizerG, optimizerD, criterion, loader, nz):
    for real, _ in loader:
        real = real.cuda()
        noise = torch.randn(real.size(0), nz, 1, 1, device="cuda")
        fake = netG(noise)
        netD.zero_grad()
        d_loss = criterion(netD(real), torch.ones(real.size(0), device="cuda")) + criterion(
            netD(fake), torch.zeros(real.size(0), device="cuda"))
        d_loss.backward(retain_graph=True)
        optimizerD.step()

        netG.zero_grad()
        g_loss = criterion(netD(fake), torch.ones(real.size(0), device="cuda"))
        g_loss.backward()
        optimizerG.step()
