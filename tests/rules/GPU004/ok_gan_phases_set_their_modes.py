import torch


def train(generator, critic, loader, opt_g, opt_d, steps):
    for step, real in enumerate(loader):
        phase = "G" if step % 2 == 0 else "D"
        noise = torch.randn(real.size(0), 128, device=real.device)
        if phase == "G":
            generator.train()
            critic.eval()
            fake = generator(noise)
            loss_g = -critic(fake).mean()
            opt_g.zero_grad()
            loss_g.backward()
            opt_g.step()
        elif phase == "D":
            generator.eval()
            critic.train()
            with torch.no_grad():
                fake = generator(noise)
            loss_d = critic(fake).mean() - critic(real).mean()
            opt_d.zero_grad()
            loss_d.backward()
            opt_d.step()
        if step == steps:
            break
