import torch


def forward_backward(model, criterion, x, y, device):
    x.to(device)  # expect: GPU003
    y.to(device)  # expect: GPU003
    logits = model(x.view(x.shape[0], -1))
    loss = criterion(logits, y.view(-1))
    loss.backward()
    return loss.item()
