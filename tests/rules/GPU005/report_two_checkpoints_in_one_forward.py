import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class TwoTower(nn.Module):
    def __init__(self, query_vectors, doc_vectors, dim):
        super().__init__()
        self.q_embed = nn.Embedding.from_pretrained(query_vectors)
        self.d_embed = nn.Embedding.from_pretrained(doc_vectors)
        self.q_tower = nn.GRU(dim, dim, batch_first=True)
        self.d_tower = nn.GRU(dim, dim, batch_first=True)

    def forward(self, query, doc):
        q = self.q_embed(query)
        d = self.d_embed(doc)
        q_out, _ = checkpoint(self.q_tower, q)  # expect: GPU005
        d_out, _ = checkpoint(self.d_tower, d)  # expect: GPU005
        return (q_out[:, -1] * d_out[:, -1]).sum(-1)
