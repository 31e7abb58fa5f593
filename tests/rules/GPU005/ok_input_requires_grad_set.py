import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Stack(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(dim, dim), nn.ReLU())

    def forward(self, n, dim, device):
        seed = torch.zeros(n, dim, device=device, requires_grad=True)
        return checkpoint(self.block, seed)
