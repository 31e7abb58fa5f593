import torch
import torch.nn as nn


def causal_mask(size, device):
    mask = torch.triu(torch.ones(size, size), diagonal=1).bool()
    mask.to(device)  # pedantic: GPU003
    return mask


class TinyDecoder(nn.Module):
    def __init__(self, vocab, dim=256, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        mask = causal_mask(tokens.size(1), tokens.device)
        return self.head(self.blocks(self.embed(tokens), mask=mask))
