"""Per-GPU entry point of another task: it imports the engine package's
configuration module only, which never reaches the checkpoint module."""
import os

import torch
import torch.distributed as dist

from vision.engine import config


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    return config.defaults()
