"""The per-GPU path passes map_location; the load without it is on the path
where one process drives every GPU."""
import argparse

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel

from branch_demo_model import build_branch_demo_model


def worker(gpu, args):
    args.gpu = gpu
    dist.init_process_group("nccl", init_method=args.url, world_size=args.world, rank=args.node_rank + gpu)
    net = build_branch_demo_model()
    if args.gpu is not None:
        torch.cuda.set_device(args.gpu)
        net = DistributedDataParallel(net.cuda(args.gpu), device_ids=[args.gpu])
    else:
        net = DistributedDataParallel(net.cuda())
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr)
    if args.resume:
        if args.gpu is None:
            saved = torch.load(args.resume)
        else:
            saved = torch.load(args.resume, map_location=f"cuda:{args.gpu}")
        net.load_state_dict(saved["net"])
        optimizer.load_state_dict(saved["optimizer"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--url", default="tcp://127.0.0.1:29500")
    parser.add_argument("--world", type=int, default=1)
    parser.add_argument("--node-rank", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.1)
    cli = parser.parse_args()
    mp.spawn(worker, args=(cli,), nprocs=torch.cuda.device_count())
