import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Tagger(nn.Module):
    def __init__(self, vectors, depth):
        super().__init__()
        self.emb = nn.Embedding(vectors.size(0), vectors.size(1))
        self.emb.weight.data.copy_(vectors)
        self.emb.weight.requires_grad_(False)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(vectors.size(1), 4, batch_first=True) for _ in range(depth))

    def unfreeze(self):
        self.emb.weight.requires_grad_(True)

    def forward(self, ids):
        h = self.emb(ids)
        for block in self.blocks:
            h = checkpoint(block, h)
        return h
