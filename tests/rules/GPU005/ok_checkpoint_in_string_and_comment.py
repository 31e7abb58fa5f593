import torch.nn as nn

# h = checkpoint(block, self.embed(ids))  -- slower on this GPU, kept off
USAGE = "checkpoint(block, x) trades compute for memory"


class Encoder(nn.Module):
    def __init__(self, vectors):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors)
        self.block = nn.TransformerEncoderLayer(vectors.size(1), 4, batch_first=True)

    def forward(self, ids):
        return self.block(self.embed(ids))
