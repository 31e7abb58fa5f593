import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, vectors, use_reentrant):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors)
        self.block = nn.TransformerEncoderLayer(vectors.size(1), 4, batch_first=True)
        self.use_reentrant = use_reentrant

    def forward(self, ids):
        return checkpoint(self.block, self.embed(ids), use_reentrant=self.use_reentrant)
