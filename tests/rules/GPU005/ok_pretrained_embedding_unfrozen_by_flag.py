import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Tagger(nn.Module):
    def __init__(self, vectors, depth, tune_embeddings):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(vectors)
        self.emb.weight.requires_grad = tune_embeddings
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(vectors.size(1), 4, batch_first=True) for _ in range(depth))

    def forward(self, ids):
        h = self.emb(ids)
        for block in self.blocks:
            h = checkpoint(block, h)
        return h
