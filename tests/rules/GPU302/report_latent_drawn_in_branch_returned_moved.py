import torch
from torch import nn


class Translator(nn.Module):
    def __init__(self, generator, critic, latent_size, device):
        super().__init__()
        self.generator = generator
        self.critic = critic
        self.latent_size = latent_size
        self.device = device

    def sample_latent(self, count, kind="gauss"):
        if kind == "uniform":
            z = torch.rand(count, self.latent_size) * 2.0 - 1.0  # gap: GPU302
        else:
            z = torch.randn(count, self.latent_size)  # expect: GPU302
        return z.detach().to(self.device)

    def training_loss(self, image):
        z = self.sample_latent(image.size(0))
        return -self.critic(self.generator(image, z)).mean()


def train(model, optimizer, loader):
    for image in loader:
        loss = model.training_loss(image.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
