import torch
import torch.nn as nn


class LMTrainer:
    def __init__(self, model, batches):
        self.model = model.cuda()
        self.batches = batches
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.criterion = nn.CrossEntropyLoss()

    def repackage(self, hidden):
        if isinstance(hidden, torch.Tensor):
            return hidden.detach()
        return tuple(self.repackage(h) for h in hidden)

    def train_epoch(self, batch_size):
        hidden = self.model.init_hidden(batch_size)
        for x, y in self.batches:
            hidden = self.repackage(hidden)
            self.optimizer.zero_grad()
            logits, hidden = self.model(x.cuda(), hidden)
            loss = self.criterion(logits.flatten(0, 1), y.cuda().flatten())
            loss.backward()
            self.optimizer.step()
