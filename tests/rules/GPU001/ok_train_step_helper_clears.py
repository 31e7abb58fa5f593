import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, loader, lr=1e-3):
        self.model = model.cuda()
        self.loader = loader
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()

    def train_step(self, x, y):
        self.optimizer.zero_grad(set_to_none=True)
        loss = self.criterion(self.model(x.cuda()), y.cuda())
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, epochs):
        for epoch in range(epochs):
            losses = [self.train_step(x, y) for x, y in self.loader]
            print(epoch, sum(losses) / len(losses))
