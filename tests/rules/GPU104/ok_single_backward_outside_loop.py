"""A one-off gradient check, not a training loop."""
import torch
from torch import nn

model = nn.Linear(16, 4)
x = torch.randn(8, 16)
loss = model(x).pow(2).sum()
loss.backward(retain_graph=True)
first = model.weight.grad.clone()
model.zero_grad()
loss.backward()
assert torch.allclose(first, model.weight.grad)
