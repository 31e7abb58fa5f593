from dataclasses import dataclass

import torch


@dataclass
class Batch:
    tokens: torch.Tensor
    targets: torch.Tensor

    def to(self, device):
        self.tokens = self.tokens.to(device)
        self.targets = self.targets.to(device)
        return self


def collate(samples):
    tokens = torch.stack([s[0] for s in samples])
    targets = torch.stack([s[1] for s in samples])
    return Batch(tokens, targets)


def train(model, optimizer, loader, device):
    for batch in loader:
        batch.to(device)
        optimizer.zero_grad()
        loss = model(batch.tokens, batch.targets)
        loss.backward()
        optimizer.step()
    sample = collate(dataset[:8])
    sample.to(device)
