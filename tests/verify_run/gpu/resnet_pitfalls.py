"""ResNet-18 training with two pitfalls, for the probe's overhead with
findings to measure: no zero_grad (GPU001) and empty_cache() every step
(GPU201). The reproduction's model and batch (verify/models.py: batch 64 at
224x224); each step's time (synchronized, as verify/harness.py does) is
printed as a JSON line.

    python3 resnet_pitfalls.py [--steps N]
"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "verify"))
from models import resnet18  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=200)
options = parser.parse_args()
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = resnet18().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
x = torch.randn(64, 3, 224, 224, device=device)
y = torch.randint(0, 1000, (64,), device=device)
last = time.perf_counter()
for step in range(1, options.steps + 1):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    torch.cuda.empty_cache()
    if device.type == "cuda":
        torch.cuda.synchronize()
    now = time.perf_counter()
    print(json.dumps({"step": step, "time_ms": (now - last) * 1e3}), flush=True)
    last = now
