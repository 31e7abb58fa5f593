# WGAN step: the critic trains a few times per batch and its losses are collected for that batch only; the list
# is bound afresh for every batch and summed into a number before the next one.
import torch


def train(gen, critic, loader, opt_g, opt_c, n_critic=5):
    history = []
    for real in loader:
        critic_losses = []
        for _ in range(n_critic):
            fake = gen(torch.randn(real.size(0), 128))
            c_loss = critic(fake.detach()).mean() - critic(real).mean()
            opt_c.zero_grad()
            c_loss.backward()
            opt_c.step()
            critic_losses.append(c_loss)
        history.append(float(sum(critic_losses)) / n_critic)
        g_loss = -critic(gen(torch.randn(real.size(0), 128))).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
    return history
