import torch


def compute_fid(gen, z_bank, scorer):
    gen.eval()
    with torch.no_grad():
        fake = torch.cat([gen(z) for z in z_bank])
    return scorer(fake)


def train(gen, disc, loader, opt, z_dim, z_bank, scorer):
    gen.train()
    for step, real in enumerate(loader):
        z = torch.randn(real.size(0), z_dim, device=real.device)
        opt.zero_grad()
        loss = -disc(gen(z)).mean()
        loss.backward()
        opt.step()
        if step and step % 5000 == 0:
            print(step, compute_fid(gen, z_bank, scorer))  # expect: GPU004
