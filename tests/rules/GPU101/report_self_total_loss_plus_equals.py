import torch
import torch.nn.functional as F


class Runner:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.total_loss = 0.0
        self.steps = 0

    def step(self, batch):
        x, y = batch
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(x.cuda()), y.cuda())
        loss.backward()
        self.optimizer.step()
        self.total_loss += loss  # expect: GPU101
        self.steps += 1

    def run(self, loader):
        for batch in loader:
            self.step(batch)
        return self.total_loss / max(self.steps, 1)
