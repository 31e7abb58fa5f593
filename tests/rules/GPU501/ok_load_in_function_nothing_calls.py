"""The training entry point never calls the helper that loads without
map_location: nothing runs it."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from unused_loader_demo_model import build_unused_loader_demo_model


def load_for_inspection(model, optimizer, path):
    snapshot = torch.load(path)
    model.load_state_dict(snapshot["model"])
    optimizer.load_state_dict(snapshot["optimizer"])


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = DDP(build_unused_loader_demo_model().cuda(local_rank), device_ids=[local_rank])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if dist.get_rank() == 0:
        torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict()}, "snapshot.pt")


if __name__ == "__main__":
    main()
