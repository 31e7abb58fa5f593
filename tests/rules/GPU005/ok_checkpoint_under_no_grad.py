import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


@torch.no_grad()
def embed_corpus(encoder: nn.Module, frozen_embedding, loader):
    out = []
    for ids in loader:
        x = frozen_embedding(ids).detach()
        out.append(checkpoint(encoder, x))
    return out
