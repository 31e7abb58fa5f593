import torch

from models import Generator, Critic

device = torch.device("cuda")
gen, critic = Generator().to(device), Critic().to(device)
opt_g = torch.optim.RMSprop(gen.parameters(), lr=5e-5)
opt_c = torch.optim.RMSprop(critic.parameters(), lr=5e-5)


def train(loader, n_critic=5):
    for i, (real, _) in enumerate(loader):
        real = real.to(device)
        noise = torch.randn(real.size(0), 128)  # expect: GPU302
        noise = noise.to(device)
        opt_c.zero_grad()
        loss_c = critic(gen(noise).detach()).mean() - critic(real).mean()
        loss_c.backward()
        opt_c.step()
        for p in critic.parameters():
            p.data.clamp_(-0.01, 0.01)
        if i % n_critic == 0:
            opt_g.zero_grad()
            loss_g = -critic(gen(noise)).mean()
            loss_g.backward()
            opt_g.step()
