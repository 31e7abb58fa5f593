import torch


class EMAStatistics:
    """Running mean and variance of features, kept outside the model."""

    def __init__(self, dim, momentum=0.99):
        self.momentum = momentum
        self.mean = torch.zeros(dim)
        self.var = torch.ones(dim)

    def to(self, device):
        self.mean.to(device)  # pedantic: GPU003
        self.var = self.var.to(device)
        return self

    @torch.no_grad()
    def update(self, features):
        self.mean.mul_(self.momentum).add_(features.mean(0), alpha=1 - self.momentum)
        self.var.mul_(self.momentum).add_(features.var(0), alpha=1 - self.momentum)
