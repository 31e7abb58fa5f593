"""A super-resolution GAN: the discriminator's backward retains its graph,
but the generator's loss is computed from a second forward of both
networks after it, so no later backward runs through the retained graph."""
import torch


def train(netG, netD, optimizerG, optimizerD, content_loss, loader, epochs):
    for epoch in range(epochs):
        for low, high in loader:
            low, high = low.cuda(), high.cuda()
            fake = netG(low)
            netD.zero_grad()
            d_loss = 1 - netD(high).mean() + netD(fake).mean()
            d_loss.backward(retain_graph=True)  # expect: GPU104
            optimizerD.step()

            netG.zero_grad()
            fake = netG(low)
            fake_score = netD(fake).mean()
            g_loss = content_loss(fake, high) + 1e-3 * (1 - fake_score)
            g_loss.backward()
            optimizerG.step()
