import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Adapter(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.down = nn.Linear(dim, dim // 8)
        self.up = nn.Linear(dim // 8, dim)

    def forward(self, x):
        return x + self.up(self.down(x).relu())


class FrozenTextWithAdapters(nn.Module):
    def __init__(self, vectors, depth):
        super().__init__()
        self.tokens = nn.Embedding.from_pretrained(vectors)
        self.adapters = nn.ModuleList(Adapter(vectors.size(1)) for _ in range(depth))
        self.final = Adapter(vectors.size(1))

    def forward(self, ids):
        x = self.tokens(ids)
        x = checkpoint(self.adapters[0], x)  # expect: GPU005
        x = checkpoint(self.final, x)  # expect: GPU005
        return x
