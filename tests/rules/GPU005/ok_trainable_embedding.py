import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, vocab, dim, depth):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(dim, 8, batch_first=True) for _ in range(depth))

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            h = checkpoint(block, h)
        return h
