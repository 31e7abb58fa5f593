import torch


class Averager:
    """Averages losses, tensors and all."""

    def __init__(self):
        self.reset()

    def add(self, v):
        count = v.numel()
        v = v.sum()
        self.n_count += count
        self.sum += v

    def reset(self):
        self.n_count = 0
        self.sum = 0

    def val(self):
        return float(self.sum) / max(self.n_count, 1)
