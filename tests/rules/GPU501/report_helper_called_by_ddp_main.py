"""The training entry point calls the helper that loads without
map_location, in every rank."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from called_loader_demo_model import build_called_loader_demo_model


def load_snapshot(model, optimizer, path):
    snapshot = torch.load(path)  # expect: GPU501
    model.load_state_dict(snapshot["model"])
    optimizer.load_state_dict(snapshot["optimizer"])


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = DDP(build_called_loader_demo_model().cuda(local_rank), device_ids=[local_rank])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if os.path.exists("snapshot.pt"):
        load_snapshot(model.module, optimizer, "snapshot.pt")


if __name__ == "__main__":
    main()
