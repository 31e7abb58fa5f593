# A timing script runs a freshly built network that no code trains or loads: only the loop's shape says inference.
import time

import torch
from torch import nn

network = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
x = torch.randn(64, 256, device="cuda")
start = time.time()
for _ in range(100):
    network(x)  # pedantic: GPU103
torch.cuda.synchronize()
print((time.time() - start) / 100)
