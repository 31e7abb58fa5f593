import torch
import torch.nn as nn


class LMTrainer:
    def __init__(self, model, batches, lr=1e-3):
        self.model = model.cuda()
        self.batches = batches
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()

    def train_epoch(self, batch_size):
        self.model.train()
        hidden = self.model.init_hidden(batch_size)
        total = 0.0
        for x, y in self.batches:
            self.optimizer.zero_grad()
            logits, hidden = self.model(x.cuda(), hidden)  # expect: GPU102
            loss = self.criterion(logits.flatten(0, 1), y.cuda().flatten())
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(self.batches)
