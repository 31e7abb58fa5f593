import torch


def critic_step(critic, real, fake, optimizer, weight=10.0):
    alpha = torch.rand(real.size(0), 1, 1, 1, device=real.device)
    mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(mixed)
    grads = torch.autograd.grad(scores.sum(), mixed, create_graph=True, retain_graph=True)[0]
    penalty = ((grads.flatten(1).norm(dim=1) - 1) ** 2).mean()
    loss = critic(fake).mean() - critic(real).mean() + weight * penalty
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train(critic, generator, loader, optimizer, nz):
    for real, _ in loader:
        fake = generator(torch.randn(real.size(0), nz, device=real.device)).detach()
        critic_step(critic, real, fake, optimizer)
