"""A GAN samples a grid of images after each epoch's batch loop: the draw
runs once per epoch, inside the epoch loop but outside the batch loop."""
import torch


def noise_for_grid(count, width, device):
    return torch.randn(count, width, 1, 1).to(device)


def train(generator, discriminator, loader, opt_g, opt_d, epochs, device):
    for epoch in range(epochs):
        for real, _ in loader:
            real = real.to(device)
            z = torch.randn(real.size(0), 100, 1, 1, device=device)
            fake = generator(z)
            loss_d = -(discriminator(real).mean() - discriminator(fake.detach()).mean())
            opt_d.zero_grad()
            loss_d.backward()
            opt_d.step()
            loss_g = -discriminator(fake).mean()
            opt_g.zero_grad()
            loss_g.backward()
            opt_g.step()
        with torch.no_grad():
            grid = generator(torch.randn(64, 100, 1, 1).to(device))
            sample = generator(noise_for_grid(16, 100, device))
        print(epoch, grid.shape, sample.shape)
