"""Record which op produced each output, to debug a model's graph."""
import torch
from torch import nn

from data import probe_loader

model = nn.Sequential(nn.Linear(128, 256), nn.GELU(), nn.Linear(256, 10)).cuda()
producers = []
for batch in probe_loader:
    logits = model(batch["x"].cuda())
    producers.append(logits.grad_fn)  # expect: GPU101
print({type(fn).__name__ for fn in producers})
