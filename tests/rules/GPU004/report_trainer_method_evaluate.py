import torch
from torch import nn


class Trainer:
    def __init__(self, model, optimizer, train_loader, val_loader):
        self.model = model
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.criterion = nn.CrossEntropyLoss()

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        losses = [self.criterion(self.model(x), y).item() for x, y in self.val_loader]
        return sum(losses) / len(losses)

    def fit(self, epochs):
        self.model.train()
        for epoch in range(epochs):
            for x, y in self.train_loader:
                self.optimizer.zero_grad()
                self.criterion(self.model(x), y).backward()
                self.optimizer.step()
            print(epoch, self.evaluate())  # expect: GPU004
