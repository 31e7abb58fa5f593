"""The fixed twin of gan.py: each network's gradients cleared before its
backward."""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
batch, latent, width = (256, 128, 128) if device == "cuda" else (8, 16, 16)
torch.manual_seed(0)


def real_images(count):
    """Discs of random colour, place and size on faint noise, in [-1, 1]."""
    ys, xs = torch.meshgrid(torch.arange(32.0, device=device), torch.arange(32.0, device=device), indexing="ij")
    centre = torch.rand(count, 2, 1, 1, device=device) * 20 + 6
    radius = torch.rand(count, 1, 1, device=device) * 6 + 3
    inside = ((ys - centre[:, 0]) ** 2 + (xs - centre[:, 1]) ** 2 < radius ** 2).float()
    colour = torch.rand(count, 3, 1, 1, device=device) * 2 - 1
    return inside.unsqueeze(1) * colour + 0.05 * torch.randn(count, 3, 32, 32, device=device)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.project = nn.Linear(latent, 4 * width * 4 * 4)
        self.body = nn.Sequential(
            nn.BatchNorm2d(4 * width), nn.ReLU(),
            nn.ConvTranspose2d(4 * width, 2 * width, 4, 2, 1), nn.BatchNorm2d(2 * width), nn.ReLU(),
            nn.ConvTranspose2d(2 * width, width, 4, 2, 1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.ConvTranspose2d(width, 3, 4, 2, 1), nn.Tanh())

    def forward(self, z):
        return self.body(self.project(z).view(-1, 4 * width, 4, 4))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, width, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(width, 2 * width, 4, 2, 1), nn.BatchNorm2d(2 * width), nn.LeakyReLU(0.2),
            nn.Conv2d(2 * width, 4 * width, 4, 2, 1), nn.BatchNorm2d(4 * width), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(4 * width * 4 * 4, 1))

    def forward(self, images):
        return self.body(images).squeeze(1)


generator, discriminator = Generator().to(device), Discriminator().to(device)
opt_g = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
ones, zeros = torch.ones(batch, device=device), torch.zeros(batch, device=device)

for iteration in range(2000):
    real = real_images(batch)
    fake = generator(torch.randn(batch, latent, device=device))

    # the discriminator: real against generated
    d_loss = F.binary_cross_entropy_with_logits(discriminator(real), ones) + \
        F.binary_cross_entropy_with_logits(discriminator(fake.detach()), zeros)
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    # the generator: fool the discriminator
    g_loss = F.binary_cross_entropy_with_logits(discriminator(fake), ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    if iteration % 100 == 0:
        print("iteration %d d %.3f g %.3f" % (iteration, d_loss.item(), g_loss.item()), file=sys.stderr)
