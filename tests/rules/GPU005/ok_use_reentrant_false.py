import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, vectors, depth):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(vectors.size(1), 8, batch_first=True) for _ in range(depth))

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False)
        return h
