"""The video UNet: a 2D UNet inflated over frames."""
import torch.nn as nn

from .blocks import CrossAttnDown, CrossAttnUp, MidBlock, get_down_block
from .resnet import InflatedConv


class VideoUNet(nn.Module):
    def __init__(self, in_channels=4, channels=64, context_dim=768, temb_channels=256):
        super().__init__()
        self.conv_in = InflatedConv(in_channels, channels, 3, padding=1)
        self.time_embedding = nn.Sequential(nn.Linear(1, temb_channels), nn.SiLU(), nn.Linear(temb_channels, temb_channels))
        self.down_blocks = nn.ModuleList([])
        for kind in ("CrossAttnDown", "CrossAttnDown"):
            self.down_blocks.append(get_down_block(kind, channels, context_dim))
        self.mid_block = MidBlock(channels, context_dim)
        self.up_blocks = nn.ModuleList([CrossAttnUp(channels, context_dim) for _ in range(2)])
        self.conv_out = InflatedConv(channels, in_channels, 3, padding=1)

    @classmethod
    def from_pretrained_2d(cls, path):
        model = cls()
        model.load_2d_weights(path)
        return model

    def load_2d_weights(self, path):
        pass

    def _set_gradient_checkpointing(self, module, value=False):
        if isinstance(module, CrossAttnUp):
            module.gradient_checkpointing = value

    def enable_gradient_checkpointing(self):
        self.apply(lambda module: self._set_gradient_checkpointing(module, True))

    def forward(self, sample, timesteps, context):
        emb = self.time_embedding(timesteps[:, None].float())
        sample = self.conv_in(sample)
        skips = (sample,)
        for block in self.down_blocks:
            sample, res = block(sample, emb, context)
            skips += res
        sample = self.mid_block(sample, emb, context)
        for block in self.up_blocks:
            sample = block(sample, skips, emb, context)
            skips = skips[:-2]
        return self.conv_out(sample)
