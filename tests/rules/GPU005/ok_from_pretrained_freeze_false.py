import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, vectors):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors, freeze=False)
        self.rnn = nn.GRU(vectors.size(1), 256, batch_first=True)

    def forward(self, ids):
        out, _ = checkpoint(self.rnn, self.embed(ids))
        return out
