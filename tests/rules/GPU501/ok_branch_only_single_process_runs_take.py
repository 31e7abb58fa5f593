"""The load without map_location is on the branch a run of one process
takes; the per-GPU path maps the checkpoint to the host."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from restore_demo_model import build_restore_demo_model


def restore(model, optimizer, path):
    if not dist.is_initialized():
        checkpoint = torch.load(path)
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        return
    checkpoint = torch.load(path, map_location="cpu")
    model.module.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])


def main():
    if int(os.environ.get("WORLD_SIZE", 1)) > 1:
        dist.init_process_group("nccl")
        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = build_restore_demo_model().cuda()
    if dist.is_initialized():
        model = DDP(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    restore(model, optimizer, "last.pt")


if __name__ == "__main__":
    main()
