"""A data-parallel job that resumes from a checkpoint, run with
`torchrun --nproc-per-node 2 ddp_resume.py`. Rank 0 saves the model's
state from cuda:0 (512 MB), then every rank loads it with
`torch.load(path)` and no `map_location` (the pitfall): the tensors go back
to cuda:0, the device they were saved from, on every rank, so GPU 0 holds
one copy per rank (and rank 1 makes a CUDA context there too)."""
import os
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


def mlp():
    layers = []
    for _ in range(8):
        layers += [nn.Linear(4096, 4096), nn.ReLU()]
    return nn.Sequential(*layers)


dist.init_process_group("nccl")
rank, local_rank = dist.get_rank(), int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
device = torch.device("cuda", local_rank)
folder = os.environ.get("CHECKPOINT_DIR", tempfile.gettempdir())
path = os.path.join(folder, "ddp_resume_%s.pt" % os.environ.get("MASTER_PORT", "0"))
if rank == 0:
    torch.save(mlp().to(device).state_dict(), path)
dist.barrier()

model = mlp().to(device)
state = torch.load(path)
model.load_state_dict(state)
ddp = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
optimizer = torch.optim.SGD(ddp.parameters(), lr=1e-4)
x = torch.randn(512, 4096, device=device)
for step in range(200):
    optimizer.zero_grad()
    loss = F.mse_loss(ddp(x), x)
    loss.backward()
    optimizer.step()
    if step % 50 == 0 and rank == 0:
        print("step", step, "loss", loss.item(), file=sys.stderr)
dist.barrier()
if rank == 0:
    os.remove(path)
dist.destroy_process_group()
