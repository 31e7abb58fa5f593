"""Grad-CAM style taps: the latest activation of each layer, by name."""
import torch


class ActivationTaps:
    def __init__(self, model, layer_names):
        self.activations = {}
        for name, module in model.named_modules():
            if name in layer_names:
                module.register_forward_hook(self._save(name))

    def _save(self, name):
        def hook(module, inputs, output):
            self.activations[name] = output

        return hook


def train(model, taps, loader, optimizer, criterion):
    for x, y in loader:
        loss = criterion(model(x), y) + 1e-4 * sum(a.pow(2).mean() for a in taps.activations.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
