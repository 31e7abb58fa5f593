# Validation with grad on: the two heads' losses are stacked and averaged before they are summed over the epoch;
# the average is a method of what torch.stack returned, and it carries the graph of both heads.
import torch
import torch.nn.functional as F


def validate(model, val_loader):
    model.eval()
    total = 0.0
    for x, y in val_loader:
        coarse, fine = model(x)  # expect: GPU103
        pair = torch.stack([F.cross_entropy(coarse, y), F.cross_entropy(fine, y)])
        total += pair.mean()  # expect: GPU101
        total += torch.stack([F.cross_entropy(coarse, y), F.cross_entropy(fine, y)]).mean()  # expect: GPU101
    return float(total) / len(val_loader)
