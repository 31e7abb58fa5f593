import torch
import torch.nn as nn


class Learner:
    def __init__(self, model, lr=1e-3):
        self.model = model.cuda()
        self.loss_fn = nn.CrossEntropyLoss()
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)

    def train_step(self, x, y):
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        self.opt.zero_grad()  # expect: GPU002
        self.opt.step()
        return loss.item()

    def train(self, loader, epochs):
        for _ in range(epochs):
            for x, y in loader:
                self.train_step(x.cuda(), y.cuda())
