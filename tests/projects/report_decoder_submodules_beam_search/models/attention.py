# Additive attention used by the decoder.
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, enc_dim, dec_dim, attn_dim):
        super().__init__()
        self.enc_proj = nn.Linear(enc_dim, attn_dim, bias=False)
        self.dec_proj = nn.Linear(dec_dim, attn_dim)
        self.score = nn.Linear(attn_dim, 1, bias=False)

    def forward(self, enc_out, h):
        # enc_out: (B, T, enc_dim), h: (B, dec_dim)
        energy = torch.tanh(self.enc_proj(enc_out) + self.dec_proj(h).unsqueeze(1))
        weights = self.score(energy).squeeze(-1).softmax(dim=-1)
        context = torch.bmm(weights.unsqueeze(1), enc_out).squeeze(1)
        return context, weights
