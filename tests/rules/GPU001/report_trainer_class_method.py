import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, train_loader, lr=1e-3, device="cuda"):
        self.model = model.to(device)
        self.loader = train_loader
        self.device = device
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()

    def train_epoch(self):
        self.model.train()
        running = 0.0
        for x, y in self.loader:
            x, y = x.to(self.device), y.to(self.device)
            loss = self.criterion(self.model(x), y)
            loss.backward()  # expect: GPU001
            self.optimizer.step()
            running += loss.item()
        return running / len(self.loader)

    def fit(self, epochs):
        for epoch in range(epochs):
            print(epoch, self.train_epoch())
