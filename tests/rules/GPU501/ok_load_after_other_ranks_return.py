"""Every rank but the first returns before the load: one process reads it."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from export_demo_model import build_export_demo_model


def export_best(model, optimizer, path, out):
    if dist.get_rank() != 0:
        return
    best = torch.load(path)
    model.load_state_dict(best["model"])
    optimizer.load_state_dict(best["optimizer"])
    torch.save(model.state_dict(), out)


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = build_export_demo_model().cuda(local_rank)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    ddp = DDP(model, device_ids=[local_rank])
    export_best(ddp.module, optimizer, "best.pt", "best_weights.pt")


if __name__ == "__main__":
    main()
