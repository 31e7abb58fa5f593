import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, loader):
        self.model = model.cuda()
        self.loader = loader
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)

    def train_one_epoch(self):
        self.model.train()
        for batch in self.loader:
            self.optimizer.zero_grad()
            logits = self.model(batch["pixels"].cuda())
            loss = F.cross_entropy(logits, batch["label"].cuda())
            loss.backward()
            self.optimizer.step()
            torch.cuda.empty_cache()  # expect: GPU201

    def fit(self, epochs):
        for epoch in range(epochs):
            self.train_one_epoch()
