import torch


def to_device(t, device):
    t.to(device)  # pedantic: GPU003
    return t


def sample_latents(generator, batch, device):
    z = torch.randn(batch, 128)
    labels = torch.randint(0, 10, (batch,))
    to_device(z, device)
    to_device(labels, device)
    with torch.no_grad():
        return generator(z, labels)
