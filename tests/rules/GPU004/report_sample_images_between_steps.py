import torch
import torchvision.utils as vutils


def save_samples(generator, z, path):
    generator.eval()
    with torch.no_grad():
        vutils.save_image(generator(z), path)


def train(generator, discriminator, loader, opt_g, opt_d, criterion, nz, device):
    fixed_z = torch.randn(64, nz, device=device)
    generator.train()
    for i, (real, _) in enumerate(loader):
        z = torch.randn(real.size(0), nz, device=device)
        opt_g.zero_grad()
        g_loss = criterion(discriminator(generator(z)), torch.ones(real.size(0), 1, device=device))
        g_loss.backward()
        opt_g.step()
        if i % 1000 == 0:
            save_samples(generator, fixed_z, f"samples_{i}.png")  # expect: GPU004
