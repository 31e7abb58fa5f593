import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Encoder(nn.Module):
    def __init__(self, vectors, depth=6):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors)
        self.blocks = nn.ModuleList(Block(vectors.shape[1]) for _ in range(depth))

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            h = checkpoint(block, h)  # expect: GPU005
        return h
