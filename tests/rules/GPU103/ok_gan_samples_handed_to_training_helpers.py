# The generator's samples are handed to helpers that backpropagate: these forwards are part of training.
import torch
import torch.nn as nn


class GAN:
    def __init__(self, generator: nn.Module, discriminator: nn.Module):
        self.generator, self.discriminator = generator, discriminator
        self.g_opt = torch.optim.Adam(generator.parameters(), lr=2e-4)
        self.d_opt = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
        self.bce = nn.BCELoss()

    def _train_discriminator(self, real, fake):
        self.d_opt.zero_grad()
        real_loss = self.bce(self.discriminator(real), torch.ones(real.size(0), 1))
        fake_loss = self.bce(self.discriminator(fake.detach()), torch.zeros(real.size(0), 1))
        (real_loss + fake_loss).backward()
        self.d_opt.step()

    def _train_generator(self, outputs):
        self.g_opt.zero_grad()
        loss = self.bce(outputs, torch.ones(outputs.size(0), 1))
        loss.backward()
        self.g_opt.step()
        return loss.item()

    def train(self, loader, z_dim=64):
        for images, _ in loader:
            fake = self.generator(torch.randn(images.size(0), z_dim))
            self._train_discriminator(images, fake)
            fake = self.generator(torch.randn(images.size(0), z_dim))
            outputs = self.discriminator(fake)
            self._train_generator(outputs)
