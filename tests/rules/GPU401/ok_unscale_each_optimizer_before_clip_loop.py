"""Each optimizer's gradients are unscaled before the loop over the models
clips them; a loop over the models that runs its own scaled backward and
unscales it is one step per model."""
import torch
from torch.cuda.amp import GradScaler, autocast


def train_shared_scaler(models, optimizers, loader):
    scaler = GradScaler()
    for batch in loader:
        for optimizer in optimizers:
            optimizer.zero_grad()
        with autocast():
            loss = sum(model(batch).mean() for model in models)
        scaler.scale(loss).backward()
        for optimizer in optimizers:
            scaler.unscale_(optimizer)
        for model, optimizer in zip(models, optimizers):
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
        scaler.update()


def train_each(models, optimizers, loader):
    scaler = GradScaler()
    for batch in loader:
        for model, optimizer in zip(models, optimizers):
            optimizer.zero_grad()
            with autocast():
                loss = model(batch).mean()
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
        scaler.update()
