# Validation with grad on (a fault of its own): the two heads' losses are stacked, averaged and turned into a
# number before they are summed, so nothing is kept past the step.
import torch
import torch.nn.functional as F


def validate(model, val_loader):
    model.eval()
    total = 0.0
    for x, y in val_loader:
        coarse, fine = model(x)  # expect: GPU103
        total += torch.stack([F.cross_entropy(coarse, y), F.cross_entropy(fine, y)]).mean().item()
        total += torch.stack([F.cross_entropy(coarse, y), F.cross_entropy(fine, y)]).detach().mean()
    return total / len(val_loader)
