# Patch dataset read from .npy shards, plus the list of shard names it came from.
import glob
import os

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def shard_names(root):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(root, "*.npy")))


def patch_loader(root, batch_size):
    arrays = [np.load(os.path.join(root, name)) for name in shard_names(root)]
    patches = torch.from_numpy(np.concatenate(arrays)).float().flatten(1) / 255.0
    return DataLoader(TensorDataset(patches), batch_size=batch_size, shuffle=True, drop_last=True)
