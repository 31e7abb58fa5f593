import torch


def train(gen, critic, optimizer, loader, nz):
    fixed = torch.randn(64, nz)
    fixed = fixed.float()
    for real, _ in loader:
        z = fixed.cuda()
        loss = critic(gen(z)).mean() - critic(real.cuda()).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
