import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, device):
        self.model = model
        self.optimizer = optimizer
        self.device = device

    def train_step(self, frames, labels):
        b = frames.size(0)
        offsets = torch.randint(0, 8, (b, 2)).to(self.device)  # expect: GPU302
        rows = torch.arange(56, device=self.device)[None, :] + offsets[:, :1]
        cols = torch.arange(56, device=self.device)[None, :] + offsets[:, 1:]
        crops = frames[torch.arange(b, device=self.device)[:, None, None], :, rows[:, :, None], cols[:, None, :]]
        loss = F.cross_entropy(self.model(crops.permute(0, 3, 1, 2)), labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def fit(self, loader, epochs):
        for _ in range(epochs):
            for frames, labels in loader:
                self.train_step(frames.to(self.device), labels.to(self.device))
