import torch
from torch import autograd


def gradient_penalty(critic, real, fake, weight):
    alpha = torch.rand(real.size(0), 1, 1, 1)  # expect: GPU302
    alpha = alpha.expand_as(real)
    alpha = alpha.cuda()
    mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    score = critic(mixed)
    grads = autograd.grad(score.sum(), mixed, create_graph=True)[0]
    return weight * ((grads.flatten(1).norm(dim=1) - 1) ** 2).mean()


def train(gen, critic, opt_c, loader, nz):
    for real, _ in loader:
        real = real.cuda()
        fake = gen(torch.randn(real.size(0), nz, device="cuda")).detach()
        loss = critic(fake).mean() - critic(real).mean() + gradient_penalty(critic, real, fake, 10.0)
        opt_c.zero_grad()
        loss.backward()
        opt_c.step()
