import torch
import torch.distributed as dist


def export(model, path, rank):
    dist.init_process_group("nccl")
    if rank == 0:
        state = torch.load(path)
        torch.save({k: v.half() for k, v in state.items()}, path + ".fp16")
    dist.barrier()
