# Metric learning: two running statistics are built in one statement; each step hands them the mean positive and
# negative distances, siblings of the loss the step backpropagates, and the statistics sum them with their graphs.
import torch
import torch.nn.functional as F


class RunningStat:
    def __init__(self):
        self.reset()

    def reset(self):
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n


def triplet(anchor, positive, negative, margin=1.0):
    pos = (anchor - positive).pow(2).sum(1).sqrt()
    neg = (anchor - negative).pow(2).sum(1).sqrt()
    return F.relu(pos - neg + margin).mean(), pos.mean(), neg.mean()


def train_epoch(model, loader, optimizer):
    pos_stat, neg_stat = RunningStat(), RunningStat()
    for anchor, positive, negative in loader:
        loss, pos_dist, neg_dist = triplet(model(anchor), model(positive), model(negative))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        pos_stat.update(pos_dist)  # expect: GPU101
        neg_stat.update(neg_dist)  # expect: GPU101
    return pos_stat.total / max(pos_stat.count, 1), neg_stat.total / max(neg_stat.count, 1)
