# VAE criterion: reconstruction and KL terms (tensors) plus the KL warm-up weight (a Python float).
import torch
import torch.nn.functional as F


def vae_loss(recon, x, mu, logvar, step, warmup_steps=10000):
    rec = F.binary_cross_entropy(recon, x, reduction="sum") / x.size(0)
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    beta = float(min(1.0, step / warmup_steps))
    return rec, kld, beta
