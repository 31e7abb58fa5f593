"""Helpers whose returns are not host draws: a constant, a draw with
device=, and a mix of a draw and a tensor from data."""
import torch


class Trainer:
    def zeros_state(self, n):
        return torch.zeros(2, n, 64)

    def device_noise(self, n, device):
        return torch.randn(n, 64, device=device)

    def maybe_noise(self, x, train):
        if train:
            return torch.randn(x.size(0), 64)
        return x

    def fit(self, model, loader, optimizer, device):
        for x, _ in loader:
            h = self.zeros_state(x.size(0)).to(device)
            e = self.device_noise(x.size(0), device).to(device)
            m = self.maybe_noise(x, True).to(device)
            loss = model(x.to(device), h, e, m).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
