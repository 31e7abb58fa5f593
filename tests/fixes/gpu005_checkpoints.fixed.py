import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, vectors, depth):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(vectors.size(1), 8, batch_first=True) for _ in range(depth))
        self.head = nn.Linear(vectors.size(1), 2)

    def forward(self, ids):
        h = self.embed(ids)
        h = checkpoint(self.blocks[0], h, use_reentrant=True)
        for block in self.blocks:
            h = checkpoint(block, h)
        return self.head(h)

    def pool(self, ids):
        e = self.embed(ids)
        return checkpoint(
            self.head,
            e.mean(1),
        )
