# Image quality metrics: each returns a Python number (`.item()`), so no
# graph leaves the function whatever its inputs carry.
import torch


def peak_snr(restored, clean, peak=1.0):
    mse = torch.mean((restored - clean) ** 2)
    return (10 * torch.log10(peak ** 2 / mse)).item()


class RunningMean:
    def __init__(self):
        self.total = 0
        self.count = 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n

    @property
    def mean(self):
        return self.total / max(self.count, 1)
