import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, vectors, **checkpoint_kwargs):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors)
        self.block = nn.TransformerEncoderLayer(vectors.size(1), 4, batch_first=True)
        self.checkpoint_kwargs = checkpoint_kwargs

    def forward(self, ids):
        return checkpoint(self.block, self.embed(ids), **self.checkpoint_kwargs)
