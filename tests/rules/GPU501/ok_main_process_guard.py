import torch
from torch.nn.parallel import DistributedDataParallel

from utils import is_main_process


def summarize(path):
    if is_main_process():
        history = torch.load(path)
        print(len(history["losses"]))


def wrap(model):
    return DistributedDataParallel(model)
