"""Per-GPU entry point: one process per GPU (torchrun), each building the
launcher from the engine's module, imported from its package."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from vision.engine import launcher


def main(build_model, build_optimizer, loader):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = DistributedDataParallel(build_model().cuda(), device_ids=[local_rank])
    runner = launcher.Launcher("runs/last", model, build_optimizer(model))
    runner.fit(loader, epochs=10)
