"""Here the branch of one process per GPU is the one without map_location."""
import argparse

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel

from per_gpu_branch_model import build_per_gpu_branch_model


def worker(gpu, args):
    args.gpu = gpu
    dist.init_process_group("nccl", init_method=args.url, world_size=args.world, rank=args.node_rank + gpu)
    torch.cuda.set_device(args.gpu)
    net = DistributedDataParallel(build_per_gpu_branch_model().cuda(args.gpu), device_ids=[args.gpu])
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr)
    if args.resume:
        if args.gpu is None:
            saved = torch.load(args.resume, map_location="cpu")
        else:
            saved = torch.load(args.resume)  # expect: GPU501
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
