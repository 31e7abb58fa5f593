import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Tagger(nn.Module):
    def __init__(self, vectors, depth):
        super().__init__()
        self.emb = nn.Embedding(vectors.size(0), vectors.size(1))
        self.emb.weight = nn.Parameter(vectors, requires_grad=False)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(vectors.size(1), 4, batch_first=True) for _ in range(depth))

    def forward(self, ids):
        h = self.emb(ids)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=True)  # expect: GPU005
        return h
