import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Stem(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 32, 7, stride=2, padding=3)
        self.bn = nn.BatchNorm2d(32)
        self.vocab = nn.Embedding.from_pretrained(torch_vectors(), freeze=True)

    def _stem(self, ids):
        return self.bn(self.conv(ids))

    def forward(self, tokens):
        t = self.vocab(tokens).permute(0, 2, 1).unsqueeze(1)
        return checkpoint(self._stem, t)  # expect: GPU005


def torch_vectors():
    import torch
    return torch.randn(100, 3)
