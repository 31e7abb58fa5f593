import torch
from torch.cuda import amp


class Trainer:
    def __init__(self, model, optimizer, loader, max_grad_norm=1.0):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader
        self.max_grad_norm = max_grad_norm
        self.scaler = amp.GradScaler()

    def train_epoch(self):
        self.model.train()
        for batch in self.loader:
            self.optimizer.zero_grad()
            with amp.autocast():
                loss = self.model(**batch).loss
            self.scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)  # expect: GPU401
            self.scaler.step(self.optimizer)
            self.scaler.update()
