"""The other ranks wait at a barrier and then load too: every rank runs the
load."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from barrier_demo_model import build_barrier_demo_model


def resume_after_download(model, optimizer, path):
    if dist.get_rank() != 0:
        dist.barrier()
    best = torch.load(path)  # expect: GPU501
    model.load_state_dict(best["model"])
    optimizer.load_state_dict(best["optimizer"])
    if dist.get_rank() == 0:
        dist.barrier()


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = build_barrier_demo_model().cuda(local_rank)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    resume_after_download(model, optimizer, "best.pt")
    return DDP(model, device_ids=[local_rank])


if __name__ == "__main__":
    main()
