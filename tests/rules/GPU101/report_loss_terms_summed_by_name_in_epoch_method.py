# A detector's trainer: one step returns its dict of loss terms, which the backward ran through; the epoch method
# sums each term by name, for the log, into tensors that keep every step's graph until the epoch ends.
from collections import defaultdict

import torch


class DetectorTrainer:
    def __init__(self, model, criterion, optimizer):
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer

    def train_one_batch(self, images, targets):
        self.optimizer.zero_grad()
        predictions = self.model(images)
        loss, terms = self.criterion(predictions, targets)
        loss.backward()
        self.optimizer.step()
        return terms

    def train_one_epoch(self, dataloader):
        sums = defaultdict(lambda: torch.tensor(0.0))
        seen = 0
        for images, targets in dataloader:
            terms = self.train_one_batch(images, targets)
            for name, value in terms.items():
                sums[name] += value * images.size(0)  # expect: GPU101
            seen += images.size(0)
        return {name: float(total) / seen for name, total in sums.items()}


class SegmenterTrainer(DetectorTrainer):
    def validate(self, dataloader):
        self.model.eval()
        stats = {"loss": 0.0}
        for images, masks in dataloader:
            loss, _ = self.criterion(self.model(images), masks)  # expect: GPU103
            stats["loss"] += loss  # expect: GPU101
        return stats
