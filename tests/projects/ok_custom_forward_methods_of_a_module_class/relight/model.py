# A relighting network with two custom forwards besides forward(): encode()
# runs the encoder, shade() runs the shading head on the encoded features.
import torch
import torch.nn as nn

from relight.blocks import ConvEncoder


class RelightNet(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.encoder = ConvEncoder(3, width)
        self.shade_head = nn.Conv2d(width + 3, 3, 1)

    def encode(self, image):
        return self.encoder(image)

    def shade(self, features, light):
        light_map = light[:, :, None, None].expand(-1, -1, *features.shape[2:])
        return torch.sigmoid(self.shade_head(torch.cat([features, light_map], dim=1)))

    def forward(self, image, light):
        return self.shade(self.encode(image), light)
