import torch
import torch.distributed as dist


def log_best(path):
    dist.init_process_group("nccl")
    is_main = dist.get_rank() == 0
    if is_main:
        best = torch.load(path)
        print(best["metric"])
