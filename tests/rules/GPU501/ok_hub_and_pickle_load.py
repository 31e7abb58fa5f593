import pickle

import torch
from torch.nn.parallel import DistributedDataParallel


def setup(local_rank, path):
    model = torch.hub.load("facebookresearch/dino:main", "dino_vits16")
    with open(path, "rb") as f:
        meta = pickle.load(f)
    return DistributedDataParallel(model.cuda(local_rank)), meta
