"""The discriminator's loss reads the generator's output only through
`.detach()`: the generator's backward later in the iteration runs through
G's graph and a new forward of D, nothing the first backward kept."""
import torch
from torch import nn


def train(gen, disc, opt_g, opt_d, loader, nz, epochs):
    bce = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for real, _ in loader:
            real = real.cuda()
            noise = torch.randn(real.size(0), nz, device="cuda")
            fake = gen(noise)
            opt_d.zero_grad()
            pred_real = disc(real)
            pred_fake = disc(fake.detach())
            loss_d = bce(pred_real, torch.ones_like(pred_real)) + bce(pred_fake, torch.zeros_like(pred_fake))
            loss_d.backward(retain_graph=True)  # expect: GPU104
            opt_d.step()
            opt_g.zero_grad()
            pred = disc(fake)
            loss_g = bce(pred, torch.ones_like(pred))
            loss_g.backward()
            opt_g.step()
