import json

import numpy as np
import torch
import yaml
from torch.nn.parallel import DistributedDataParallel


def read_inputs(cfg_path, stats_path, scripted_path, local_rank):
    config = yaml.safe_load(open(cfg_path))
    stats = np.load(stats_path)
    vocab = json.load(open(config["vocab"]))
    scripted = torch.jit.load(scripted_path, map_location=f"cuda:{local_rank}")
    return config, stats, vocab, scripted


def wrap(model):
    return DistributedDataParallel(model)
