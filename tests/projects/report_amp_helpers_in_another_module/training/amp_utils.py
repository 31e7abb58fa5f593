import torch


def build_scaler(enabled=True):
    return torch.cuda.amp.GradScaler(enabled=enabled)


def scaled_backward(loss, scaler):
    scaler.scale(loss).backward()
