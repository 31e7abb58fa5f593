import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, device):
        self.model = model
        self.optimizer = optimizer
        self.device = device

    def step(self, batch):
        tokens, targets = batch
        tokens.to(self.device)  # expect: GPU003
        targets = targets.to(self.device)
        logits = self.model(tokens)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, train_loader, epochs):
        for epoch in range(epochs):
            for batch in train_loader:
                self.step(batch)
