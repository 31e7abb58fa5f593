import torch
from torch.nn.utils import clip_grad_norm_


def unscale_and_clip(scaler, optimizer, parameters, max_norm):
    scaler.unscale_(optimizer)
    return clip_grad_norm_(parameters, max_norm)


def unscale(scaler, optimizer):
    scaler.unscale_(optimizer)
