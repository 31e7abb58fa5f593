"""Down, middle and up blocks of the video UNet."""
import torch
import torch.nn as nn
import torch.utils.checkpoint

from .attention import SpatioTemporalTransformer
from .resnet import ResBlock, Downsample, Upsample


class CrossAttnDown(nn.Module):
    def __init__(self, channels, context_dim, layers=2, add_downsample=True):
        super().__init__()
        resnets, attentions = [], []
        for _ in range(layers):
            resnets.append(ResBlock(channels, channels))
            attentions.append(SpatioTemporalTransformer(channels, context_dim))
        self.resnets = nn.ModuleList(resnets)
        self.attentions = nn.ModuleList(attentions)
        self.downsamplers = nn.ModuleList([Downsample(channels)]) if add_downsample else None
        self.gradient_checkpointing = False

    def forward(self, hidden_states, temb=None, context=None):
        skips = ()
        for resnet, attn in zip(self.resnets, self.attentions):
            if self.training and self.gradient_checkpointing:

                def create_custom_forward(module):
                    def custom_forward(*inputs):
                        return module(*inputs)

                    return custom_forward

                hidden_states = torch.utils.checkpoint.checkpoint(create_custom_forward(resnet), hidden_states, temb)
                hidden_states = torch.utils.checkpoint.checkpoint(
                    create_custom_forward(attn), hidden_states, context
                )
            else:
                hidden_states = resnet(hidden_states, temb)
                hidden_states = attn(hidden_states, context)
            skips += (hidden_states,)
        if self.downsamplers is not None:
            for downsampler in self.downsamplers:
                hidden_states = downsampler(hidden_states)
            skips += (hidden_states,)
        return hidden_states, skips


class MidBlock(nn.Module):
    def __init__(self, channels, context_dim):
        super().__init__()
        self.resnets = nn.ModuleList([ResBlock(channels, channels), ResBlock(channels, channels)])
        self.attentions = nn.ModuleList([SpatioTemporalTransformer(channels, context_dim)])

    def forward(self, hidden_states, temb=None, context=None):
        hidden_states = self.resnets[0](hidden_states, temb)
        for attn, resnet in zip(self.attentions, self.resnets[1:]):
            hidden_states = attn(hidden_states, context)
            hidden_states = resnet(hidden_states, temb)
        return hidden_states


class CrossAttnUp(nn.Module):
    def __init__(self, channels, context_dim, layers=2):
        super().__init__()
        self.resnets = nn.ModuleList([ResBlock(2 * channels, channels) for _ in range(layers)])
        self.attentions = nn.ModuleList([SpatioTemporalTransformer(channels, context_dim) for _ in range(layers)])
        self.upsamplers = nn.ModuleList([Upsample(channels)])
        self.gradient_checkpointing = False

    def forward(self, hidden_states, skips, temb=None, context=None):
        for resnet, attn in zip(self.resnets, self.attentions):
            hidden_states = torch.cat([hidden_states, skips[-1]], dim=1)
            skips = skips[:-1]
            if self.training and self.gradient_checkpointing:
                hidden_states = torch.utils.checkpoint.checkpoint(resnet, hidden_states, temb)
                hidden_states = torch.utils.checkpoint.checkpoint(attn, hidden_states, context)
            else:
                hidden_states = resnet(hidden_states, temb)
                hidden_states = attn(hidden_states, context)
        for upsampler in self.upsamplers:
            hidden_states = upsampler(hidden_states)
        return hidden_states


def get_down_block(kind, channels, context_dim):
    if kind == "CrossAttnDown":
        return CrossAttnDown(channels, context_dim)
    raise ValueError(kind)
