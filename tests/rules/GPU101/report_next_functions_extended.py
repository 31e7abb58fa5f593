import torch
from torch import nn

encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model=64, nhead=4), num_layers=2)
frontier = []
for tokens in torch.randn(20, 16, 8, 64).unbind(0):
    hidden = encoder(tokens)
    frontier.extend(hidden.grad_fn.next_functions)  # expect: GPU101
print(len(frontier))
