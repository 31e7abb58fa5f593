import torch
import torch.nn.functional as F


class RunningMean:
    def __init__(self):
        self.total = 0.0
        self.n = 0

    def update(self, value, n=1):
        self.total += value * n
        self.n += n

    @property
    def mean(self):
        return self.total / max(self.n, 1)


class Trainer:
    def __init__(self, model, loader):
        self.model, self.loader = model.cuda(), loader
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.loss_meter = RunningMean()

    def train_epoch(self):
        for x, y in self.loader:
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(x.cuda()), y.cuda())
            loss.backward()
            self.opt.step()
            self.loss_meter.update(loss, x.size(0))  # expect: GPU101
        return self.loss_meter.mean
