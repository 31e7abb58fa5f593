"""Two translation models trained together, one GradScaler each: the
scaled backwards run in one loop, the clips and steps in another loop over
the models. Nothing unscales, so each clip sees gradients times the scale."""
import torch
from torch.cuda.amp import GradScaler, autocast


class DualEngine:
    def __init__(self, models, optimizers):
        self.models = models
        self.optimizers = optimizers
        self.scalers = [GradScaler(), GradScaler()]

    def step(self, batch):
        for optimizer in self.optimizers:
            optimizer.zero_grad()
        with autocast():
            losses = [model(batch).mean() for model in self.models]
        for scaler, loss in zip(self.scalers, losses):
            scaler.scale(loss).backward()
        for model, optimizer, scaler in zip(self.models, self.optimizers, self.scalers):
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)  # expect: GPU401
            scaler.step(optimizer)
            scaler.update()


def train(engine, loader):
    for batch in loader:
        engine.step(batch)


def train_shared_scaler(models, optimizers, loader):
    scaler = GradScaler()
    for batch in loader:
        for optimizer in optimizers:
            optimizer.zero_grad()
        with autocast():
            loss = sum(model(batch).mean() for model in models)
        scaler.scale(loss).backward()
        for model, optimizer in zip(models, optimizers):
            torch.nn.utils.clip_grad_value_(model.parameters(), 1.0)  # expect: GPU401
            scaler.step(optimizer)
        scaler.update()
