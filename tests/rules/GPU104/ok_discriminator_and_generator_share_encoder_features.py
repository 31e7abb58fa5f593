"""The generator's output is detached for the discriminator, but both
losses also read the encoder's features computed before the first
backward: the second backward runs through the encoder's part of the
graph the first one kept."""
import torch
from torch import nn


def train(encoder, gen, disc, opt_g, opt_d, loader):
    bce = nn.BCEWithLogitsLoss()
    for image, _ in loader:
        image = image.cuda()
        features = encoder(image)
        fake = gen(features)
        opt_d.zero_grad()
        pred_fake = disc(fake.detach(), features)
        loss_d = bce(pred_fake, torch.zeros_like(pred_fake))
        loss_d.backward(retain_graph=True)
        opt_d.step()
        opt_g.zero_grad()
        pred = disc(fake, features)
        loss_g = bce(pred, torch.ones_like(pred))
        loss_g.backward()
        opt_g.step()
