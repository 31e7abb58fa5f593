"""A reference implementation meant to compute in fp32: the dropped
`.float()` leaves the half-precision tensor, which the next line uses."""
import torch


def reference(hidden, weight):
    out = torch.nn.functional.linear(hidden, weight)
    out.float()  # expect: GPU003
    out = torch.nn.functional.gelu(out)
    return out.to(hidden.dtype)


def train(model, loader, device):
    for images, labels in loader:
        images.to(device)  # expect: GPU003
        loss = torch.nn.functional.cross_entropy(model(images), labels.to(device))
        loss.backward()
