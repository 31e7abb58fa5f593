# GAN training loop; every 100 steps it writes a grid of samples through utils.sample_images().
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from models import Discriminator, Generator
from utils import sample_images

nz = 100
tfm = transforms.Compose([transforms.Resize(64), transforms.CenterCrop(64), transforms.ToTensor(),
                          transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
loader = DataLoader(datasets.ImageFolder("data/celeba", transform=tfm), batch_size=128, shuffle=True, num_workers=8)

generator = Generator(nz).cuda()
discriminator = Discriminator().cuda()
opt_g = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
fixed_z = torch.randn(64, nz, 1, 1, device="cuda")
os.makedirs("samples", exist_ok=True)

step = 0
for epoch in range(25):
    for real, _ in loader:
        real = real.cuda()
        b = real.size(0)
        ones = torch.ones(b, device="cuda")
        zeros = torch.zeros(b, device="cuda")
        fake = generator(torch.randn(b, nz, 1, 1, device="cuda"))

        opt_d.zero_grad()
        d_loss = bce(discriminator(real), ones) + bce(discriminator(fake.detach()), zeros)
        d_loss.backward()
        opt_d.step()

        opt_g.zero_grad()
        g_loss = bce(discriminator(fake), ones)
        g_loss.backward()
        opt_g.step()

        if step % 100 == 0:
            print(f"epoch {epoch} step {step} d {d_loss.item():.3f} g {g_loss.item():.3f}")
            sample_images(generator, fixed_z, f"samples/step_{step:06d}.png")
        step += 1
