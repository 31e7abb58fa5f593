"""A loader helper hands the checkpoint back, and the per-GPU entry point
restores the model and the optimizer from it: every rank runs the load,
and the optimizer's state was saved from the GPU."""
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def load_checkpoint(path):
    return torch.load(path)  # expect: GPU501


def save_checkpoint(path, model, optimizer, epoch):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def main():
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    model = DDP(nn.Linear(32, 10).cuda(), device_ids=[rank])
    optimizer = torch.optim.AdamW(model.parameters())
    start = 0
    if os.path.exists("last.pt"):
        state = load_checkpoint("last.pt")
        model.module.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["epoch"] + 1
    for epoch in range(start, 10):
        x = torch.randn(64, 32, device="cuda")
        loss = F.cross_entropy(model(x), torch.randint(0, 10, (64,), device="cuda"))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if rank == 0:
            save_checkpoint("last.pt", model.module, optimizer, epoch)


if __name__ == "__main__":
    main()
