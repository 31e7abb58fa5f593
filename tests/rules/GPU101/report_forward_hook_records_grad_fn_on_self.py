"""Log which autograd op produced each linear layer's output during training."""
import torch
from torch import nn


class OpRecorder:
    def __init__(self, model):
        self.nodes = []
        for layer in model.modules():
            if isinstance(layer, nn.Linear):
                layer.register_forward_hook(self._record)

    def _record(self, module, inputs, output):
        self.nodes.append(output.grad_fn)  # expect: GPU101

    def summary(self):
        return sorted({type(node).__name__ for node in self.nodes})


def train(model, loader, optimizer, epochs):
    recorder = OpRecorder(model)
    for _ in range(epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print(recorder.summary())
