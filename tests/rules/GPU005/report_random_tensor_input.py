import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class NoiseDecoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))
        self.dim = dim

    def sample(self, n, device):
        z = torch.randn(n, self.dim, device=device)
        return checkpoint(self.net, z, use_reentrant=True)  # expect: GPU005
