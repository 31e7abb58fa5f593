"""A classifier wrapper validates every few batches inside the batch
loop, and puts the network back in train mode right after: the next
batches train in train mode."""
import torch
import torch.nn as nn


class TextClassifier:
    def __init__(self, network, device):
        self.network = network
        self.device = device

    def train_epoch(self, batches, dev, optimizer, validate_every=None):
        self.network.train()
        return self._run_batches(batches, dev, optimizer, validate_every)

    def _run_batches(self, batches, dev, optimizer, validate_every):
        total = 0.0
        for i, (x, y) in enumerate(batches):
            total += self._train_batch(x, y, optimizer)
            if validate_every and i % validate_every == 0:
                print(i, self.validate(dev))
                self.network.train()
        return total

    def _train_batch(self, x, y, optimizer):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(self.network(x.to(self.device)), y.to(self.device))
        loss.backward()
        optimizer.step()
        return loss.item()

    def validate(self, dev):
        self.network.eval()
        hits = 0
        with torch.no_grad():
            for x, y in dev:
                hits += (self.network(x.to(self.device)).argmax(-1) == y.to(self.device)).sum().item()
        return hits
