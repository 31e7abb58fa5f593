"""Residual blocks and resampling over video latents."""
import torch.nn as nn
import torch.nn.functional as F


class InflatedConv(nn.Conv2d):
    def forward(self, x):
        b, c, f, h, w = x.shape
        x = x.transpose(1, 2).reshape(b * f, c, h, w)
        x = super().forward(x)
        return x.reshape(b, f, *x.shape[1:]).transpose(1, 2)


class ResBlock(nn.Module):
    def __init__(self, in_channels, out_channels, temb_channels=256):
        super().__init__()
        self.norm1 = nn.GroupNorm(8, in_channels)
        self.conv1 = InflatedConv(in_channels, out_channels, 3, padding=1)
        self.time_emb_proj = nn.Linear(temb_channels, out_channels)
        self.norm2 = nn.GroupNorm(8, out_channels)
        self.conv2 = InflatedConv(out_channels, out_channels, 3, padding=1)
        self.shortcut = InflatedConv(in_channels, out_channels, 1) if in_channels != out_channels else None

    def forward(self, x, temb=None):
        h = self.conv1(F.silu(self.norm1(x)))
        if temb is not None:
            h = h + self.time_emb_proj(F.silu(temb))[:, :, None, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return h + (self.shortcut(x) if self.shortcut is not None else x)


class Downsample(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = InflatedConv(channels, channels, 3, stride=2, padding=1)

    def forward(self, x):
        return self.conv(x)


class Upsample(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = InflatedConv(channels, channels, 3, padding=1)

    def forward(self, x):
        b, c, f, h, w = x.shape
        x = F.interpolate(x, size=(f, 2 * h, 2 * w), mode="nearest")
        return self.conv(x)
