import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, loader):
        self.model = model.cuda()
        self.loader = loader
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.criterion = nn.CrossEntropyLoss()
        self.losses = []
        self.history = {"loss": []}

    def train_epoch(self):
        for x, y in self.loader:
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(x.cuda()), y.cuda())
            loss.backward()
            self.optimizer.step()
            self.losses.append(loss.item())
            self.history["loss"].append(loss.item())
