import torch
import torch.nn.functional as F


class LossMeter:
    def __init__(self):
        self.total, self.n = 0.0, 0

    def update(self, value, n=1):
        self.total += float(value) * n
        self.n += n

    def mean(self):
        return self.total / max(self.n, 1)


def train_epoch(model, loader, optimizer):
    meter = LossMeter()
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        meter.update(loss, x.size(0))
    return meter.mean()
