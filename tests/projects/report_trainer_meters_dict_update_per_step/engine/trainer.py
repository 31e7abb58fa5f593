# The trainer keeps one meter per loss term; train_step() feeds them the
# loss tensors themselves, so every meter holds each step's graph.
from collections import defaultdict

import torch

from engine.meters import AverageMeter


class Trainer:
    def __init__(self, model, optimizer, device="cuda"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device
        self.meters = defaultdict(AverageMeter)

    def train_step(self, images, targets):
        losses = self.model(images.to(self.device), targets)
        total = sum(losses.values())
        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        for name, value in losses.items():
            self.meters[name].update(value, images.size(0))  # expect: GPU101
        return total.item()

    def log(self, step):
        print(step, {name: meter.avg for name, meter in self.meters.items()})
