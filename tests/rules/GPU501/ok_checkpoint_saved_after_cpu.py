"""The weights this script loads are the ones it saves, moved to the CPU first:
the loaded tensors come back on the host in every rank."""
import argparse

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from cpu_saved_net import build_cpu_saved_net


def train(args):
    dist.init_process_group("nccl")
    local_rank = dist.get_rank() % torch.cuda.device_count()
    torch.cuda.set_device(local_rank)
    model = build_cpu_saved_net().cuda()
    if args.init:
        model.load_state_dict(torch.load(args.init))
    model = DDP(model, device_ids=[local_rank])
    for _ in range(args.epochs):
        pass
    if dist.get_rank() == 0:
        torch.save(model.module.cpu().state_dict(), args.out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--init", default="")
    parser.add_argument("--out", default="weights.pt")
    parser.add_argument("--epochs", type=int, default=1)
    train(parser.parse_args())
