"""Spatial and temporal attention over video latents."""
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, context_dim=None):
        super().__init__()
        context_dim = context_dim or dim
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(context_dim, dim, bias=False)
        self.to_v = nn.Linear(context_dim, dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, context=None):
        context = x if context is None else context
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        weights = (q @ k.transpose(-1, -2)).softmax(-1)
        return self.to_out(weights @ v)


class TransformerBlock(nn.Module):
    def __init__(self, dim, context_dim):
        super().__init__()
        self.attn1 = Attention(dim)
        self.attn2 = Attention(dim, context_dim)
        self.attn_temp = Attention(dim)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.norm3 = nn.LayerNorm(dim)

    def forward(self, x, context=None):
        x = self.attn1(self.norm1(x)) + x
        x = self.attn2(self.norm2(x), context) + x
        return self.attn_temp(self.norm3(x)) + x


class SpatioTemporalTransformer(nn.Module):
    def __init__(self, channels, context_dim, depth=1):
        super().__init__()
        self.proj_in = nn.Linear(channels, channels)
        self.transformer_blocks = nn.ModuleList([TransformerBlock(channels, context_dim) for _ in range(depth)])
        self.proj_out = nn.Linear(channels, channels)

    def forward(self, hidden_states, context=None):
        b, c, f, h, w = hidden_states.shape
        x = hidden_states.permute(0, 2, 3, 4, 1).reshape(b, f * h * w, c)
        x = self.proj_in(x)
        for block in self.transformer_blocks:
            x = block(x, context)
        x = self.proj_out(x)
        return x.reshape(b, f, h, w, c).permute(0, 4, 1, 2, 3) + hidden_states
