"""The epoch helper draws the fixed noise for its preview grid on the
host before its batch loop, and a logging helper with a loop over the
loss terms draws jitter for a plot after the batch loop: both run once
per epoch (the epoch loop calls them), not once per step."""
import torch


def log_terms(terms, step):
    for name, value in terms.items():
        jitter = torch.rand(1).cuda() * 1e-3
        print(step, name, value + jitter.item())


def train_epoch(generator, discriminator, loader, opt_g, opt_d):
    preview = torch.randn(16, 100).cuda()
    for real in loader:
        real = real.cuda()
        z = torch.randn(real.size(0), 100, device=real.device)
        loss_d = discriminator(generator(z).detach()).mean() - discriminator(real).mean()
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()
        loss_g = -discriminator(generator(z)).mean()
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
    return generator(preview), {"d": loss_d.item(), "g": loss_g.item()}


def main(generator, discriminator, loader, opt_g, opt_d, epochs):
    for epoch in range(epochs):
        grid, terms = train_epoch(generator, discriminator, loader, opt_g, opt_d)
        log_terms(terms, epoch)
        print(grid.shape)
