"""A loopless helper draws a permutation on the host and moves it; the
batch loop of the same file calls it every step."""
import torch
import torch.nn.functional as F


def mix_batch(images, labels, lam):
    order = torch.randperm(images.size(0)).to(images.device)  # expect: GPU302
    return lam * images + (1 - lam) * images[order], labels, labels[order]


def init_state(layers, batch, width, device):
    return torch.randn(layers, batch, width).to(device)  # expect: GPU302


def train(model, rnn, loader, optimizer, device):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        mixed, y_a, y_b = mix_batch(images, labels, 0.4)
        state = init_state(2, images.size(0), 128, device)
        out = model(mixed, rnn(images, state))
        loss = 0.4 * F.cross_entropy(out, y_a) + 0.6 * F.cross_entropy(out, y_b)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
