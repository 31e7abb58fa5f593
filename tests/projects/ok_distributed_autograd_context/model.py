# Hybrid model: the embedding table lives on a parameter server behind an RRef, the head is local.
import torch
import torch.distributed.rpc as rpc
import torch.nn as nn
from torch.distributed.nn import RemoteModule
from torch.distributed.rpc import RRef


class HybridRecommender(nn.Module):
    def __init__(self, num_items, dim, ps_name):
        super().__init__()
        self.remote_emb = RemoteModule(f"{ps_name}/cpu", nn.EmbeddingBag, args=(num_items, dim), kwargs={"mode": "sum"})
        self.head = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, 2)).cuda()

    def forward(self, items, offsets):
        pooled = self.remote_emb.forward(items, offsets)
        return self.head(pooled.cuda())

    def parameter_rrefs(self):
        rrefs = self.remote_emb.remote_parameters()
        rrefs.extend(RRef(p) for p in self.head.parameters())
        return rrefs
