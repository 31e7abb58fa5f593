"""overhead_loop.py — the training loop whose step time the probe's
overhead is measured on (overhead_on_gpu.py): a ResNet-18 (verify/models.py),
SGD with momentum, cross-entropy, one fixed batch, `loss.item()` each step,
as in verify/gpu201_training_loop_good.py. Each step is timed with a
device synchronization before and after it.

    overhead_loop.py --steps N --batch B --image S --times FILE

Under torchrun (LOCAL_RANK set) each rank trains a DistributedDataParallel
copy on its own GPU (NCCL) and writes FILE.RANK; otherwise one GPU writes
FILE. FILE has one JSON line per step: {"step": k, "time_ms": ...}.

--batch 64 --image 224 keeps the GPU busy (the host's time per step hides
behind the kernels); --batch 2 --image 32 leaves it waiting for the host,
so that the step time is the host's time and the probe's cost on the host
shows in full."""
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
parser.add_argument("--steps", type=int, default=400)
parser.add_argument("--batch", type=int, default=64)
parser.add_argument("--image", type=int, default=224)
parser.add_argument("--times", required=True)
options = parser.parse_args()

distributed = "LOCAL_RANK" in os.environ
if distributed:
    import torch.distributed as dist
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
device = torch.device("cuda", torch.cuda.current_device())
torch.manual_seed(0)
model = resnet18().to(device)
if distributed:
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index])
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(options.batch, 3, options.image, options.image, device=device)
y = torch.randint(0, 1000, (options.batch,), device=device)
path = options.times + (".%d" % dist.get_rank() if distributed else "")
with open(path, "w") as out:
    for step in range(1, options.steps + 1):
        torch.cuda.synchronize(device)
        begin = time.perf_counter()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        loss.item()
        torch.cuda.synchronize(device)
        out.write(json.dumps({"step": step, "time_ms": round((time.perf_counter() - begin) * 1e3, 4)}) + "\n")
if distributed:
    dist.destroy_process_group()
