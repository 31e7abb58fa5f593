import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Tagger(nn.Module):
    def __init__(self, vocab, dim, depth):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim).requires_grad_(False)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(dim, 4, batch_first=True) for _ in range(depth))

    def forward(self, ids):
        h = self.emb(ids)
        for block in self.blocks:
            h = checkpoint(block, h)  # expect: GPU005
        return h
