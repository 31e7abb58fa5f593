import torch
import torch.nn as nn

criterion = nn.SmoothL1Loss(reduction="none")


def validate(model, loader, device):
    model.eval()
    per_sample = []
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            losses = criterion(model(x), y).mean(dim=1)
            losses.cpu()  # expect: GPU003
            per_sample.extend(losses.tolist())
    return per_sample
