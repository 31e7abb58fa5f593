import torch as th
import torch.distributed as dist


def restore(model, path):
    if dist.is_initialized():
        model.load_state_dict(th.load(path))  # pedantic: GPU501
    return model


def init(rank):
    dist.init_process_group("nccl", rank=rank)
