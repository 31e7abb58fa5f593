"""The load without map_location is on the branch that runs once per
process of a distributed run."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from dist_branch_demo_model import build_dist_branch_demo_model


def restore(model, optimizer, path):
    if dist.is_initialized():
        checkpoint = torch.load(path)  # expect: GPU501
        model.module.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        return
    checkpoint = torch.load(path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])


def main():
    if int(os.environ.get("WORLD_SIZE", 1)) > 1:
        dist.init_process_group("nccl")
        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = build_dist_branch_demo_model().cuda()
    if dist.is_initialized():
        model = DDP(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    restore(model, optimizer, "last.pt")


if __name__ == "__main__":
    main()
