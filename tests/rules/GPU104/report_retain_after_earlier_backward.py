"""Two losses on two separate forwards: the second backward is the last one
of the iteration, and the graph it retains is used by nothing."""
import torch
import torch.nn.functional as F


def train(encoder, decoder, loader, optimizer):
    for x, _ in loader:
        optimizer.zero_grad()
        recon = decoder(encoder(x))
        F.mse_loss(recon, x).backward()
        noisy = decoder(encoder(x + 0.1 * torch.randn_like(x)))
        F.mse_loss(noisy, x).backward(retain_graph=True)  # expect: GPU104
        optimizer.step()
