import argparse
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

from engine.trainer import Trainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default=None)
    args = parser.parse_args()
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = DDP(nn.Linear(16, 4).cuda(), device_ids=[local_rank])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(10)]
    Trainer(model.module, optimizer, resume=args.resume).fit(loader, epochs=3)


if __name__ == "__main__":
    main()
