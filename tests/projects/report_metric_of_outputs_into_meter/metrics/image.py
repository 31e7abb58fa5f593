# Image quality metrics computed with torch ops: the result is a tensor
# built from the inputs, so it carries their graph when they have one.
import torch


def peak_snr(restored, clean, peak=1.0):
    mse = torch.mean((restored - clean) ** 2)
    return 10 * torch.log10(peak ** 2 / mse)


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
