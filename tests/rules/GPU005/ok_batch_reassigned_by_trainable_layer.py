import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(128, 256)
        self.core = nn.Sequential(nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 256))

    def forward(self, x):
        x = x.float()
        x = self.inp(x)
        return checkpoint(self.core, x)
