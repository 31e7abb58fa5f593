import argparse

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn

from algorithms.consistency import ConsistencyTraining


def build_net():
    return nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(), nn.Linear(256, 10))


def main_worker(gpu, ngpus, args):
    distributed = ngpus > 1
    if distributed:
        dist.init_process_group("nccl", init_method=args.dist_url, rank=gpu, world_size=ngpus)
    torch.cuda.set_device(gpu)
    algorithm = ConsistencyTraining(build_net().cuda(gpu))
    if distributed:
        algorithm.model = nn.parallel.DistributedDataParallel(algorithm.model, device_ids=[gpu])
    else:
        algorithm = nn.DataParallel(algorithm.model)
    if args.resume:
        algorithm.load_model(args.resume)
    labelled = [(torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,)))] * 10
    unlabelled = [(torch.randn(48, 3, 32, 32), torch.randn(48, 3, 32, 32))] * 10
    algorithm.train_loop(labelled, unlabelled, gpu)
    if gpu == 0:
        algorithm.save_model("latest.pth")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default=None)
    parser.add_argument("--dist-url", default="tcp://127.0.0.1:23456")
    args = parser.parse_args()
    ngpus = torch.cuda.device_count()
    mp.spawn(main_worker, nprocs=ngpus, args=(ngpus, args))


if __name__ == "__main__":
    main()
