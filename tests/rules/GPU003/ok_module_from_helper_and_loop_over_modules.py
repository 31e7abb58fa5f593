import torch
import torch.nn as nn


def build_encoder(dim):
    return nn.Sequential(nn.Linear(dim, dim), nn.ReLU())


encoder = build_encoder(256)
encoder.cuda()
for name, child in encoder.named_children():
    child.half()
for module in encoder.modules():
    if isinstance(module, nn.LayerNorm):
        module.float()
