# A detector's trainer: one step returns its dict of loss terms; the epoch method sums each term by name as a
# Python number, and a short loop over the heads of one batch fills a list that the batch consumes.
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
        sums = defaultdict(float)
        seen = 0
        for images, targets in dataloader:
            terms = self.train_one_batch(images, targets)
            for name, value in terms.items():
                sums[name] += value.item() * images.size(0)
            seen += images.size(0)
        return {name: total / seen for name, total in sums.items()}

    def head_step(self, images, targets):
        parts = []
        for head in self.model.heads:
            parts.append(self.criterion(head(images), targets)[0])
        loss = sum(parts)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
