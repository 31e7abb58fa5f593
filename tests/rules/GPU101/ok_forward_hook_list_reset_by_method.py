import torch
from torch import nn


class HiddenStateCollector:
    def __init__(self, model):
        self.states = []
        model.encoder.register_forward_hook(self.collect)

    def collect(self, module, inputs, output):
        self.states.append(output)

    def reset(self):
        self.states = []


def train(model, collector, loader, optimizer):
    for tokens, labels in loader:
        collector.reset()
        logits = model(tokens)
        reg = torch.stack([s.norm() for s in collector.states]).mean()
        loss = nn.functional.cross_entropy(logits, labels) + 0.01 * reg
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
