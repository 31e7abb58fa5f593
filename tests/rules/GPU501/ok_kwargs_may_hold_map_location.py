import torch
from torch.nn.parallel import DistributedDataParallel


def load_checkpoint(path, **load_kwargs):
    return torch.load(path, **load_kwargs)


def wrap(model):
    return DistributedDataParallel(model)
