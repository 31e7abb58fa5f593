import torch
import torch.nn.functional as F


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    total, count = 0.0, 0
    for inputs, target in loader:
        inputs = inputs.to(device)
        inputs.bfloat16()  # expect: GPU003
        with torch.autocast("cuda", dtype=torch.bfloat16):
            output = model(inputs)
        target = target.to(device)
        target.double()  # expect: GPU003
        total += F.mse_loss(output.float(), target.float(), reduction="sum").item()
        count += target.numel()
    return total / count
