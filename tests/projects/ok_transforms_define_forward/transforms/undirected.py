import torch

from .base import BaseTransform


class ToUndirected(BaseTransform):
    def forward(self, data):
        row, col = data.edge_index
        data.edge_index = torch.cat([torch.stack([row, col]), torch.stack([col, row])], dim=1)
        return data
