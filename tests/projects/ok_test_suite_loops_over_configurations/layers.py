import torch
import torch.nn as nn


class MeanConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, adj):
        return self.lin(adj @ x / adj.sum(1, keepdim=True).clamp(min=1))


class MaxConv(MeanConv):
    def forward(self, x, adj):
        return self.lin((adj.unsqueeze(-1) * x.unsqueeze(0)).amax(1))


def assert_layouts(module, x, adj, expected):
    # Runs the layer once per sparse layout and compares: a check, not an evaluation loop.
    for layout in ("dense", "coo", "csr"):
        if layout == "coo":
            adj_t = adj.to_sparse_coo().to_dense()
        elif layout == "csr":
            adj_t = adj.to_sparse_csr().to_dense()
        else:
            adj_t = adj
        out = module(x, adj_t)
        assert torch.allclose(out, expected, atol=1e-5)
    return expected
