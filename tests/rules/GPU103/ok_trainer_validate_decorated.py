import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, train_loader, val_loader):
        self.model = model.cuda()
        self.train_loader, self.val_loader = train_loader, val_loader
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1, momentum=0.9)

    def train_epoch(self):
        self.model.train()
        for x, y in self.train_loader:
            self.optimizer.zero_grad()
            self.criterion(self.model(x.cuda()), y.cuda()).backward()
            self.optimizer.step()

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        total = 0.0
        for x, y in self.val_loader:
            total += self.criterion(self.model(x.cuda()), y.cuda()).item()
        return total / len(self.val_loader)

    def fit(self, epochs):
        for _ in range(epochs):
            self.train_epoch()
            print(self.validate())
