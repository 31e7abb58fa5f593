# Building blocks of the relighting network.
import torch.nn as nn


class ConvEncoder(nn.Module):
    def __init__(self, channels=3, width=32):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(channels, width, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(width, width, 3, padding=1))

    def forward(self, x):
        return self.body(x)
