"""Each branch clears before its own backward, and a clear before the
branch covers the branch that has none."""
import torch


def train_one_epoch(model, criterion, loader, optimizer, scaler, use_amp):
    model.train()
    for images, targets in loader:
        loss = criterion(model(images.cuda()), targets.cuda())
        if use_amp:
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def fine_tune(model, criterion, loader, optimizer, clip):
    for images, targets in loader:
        optimizer.zero_grad()
        loss = criterion(model(images), targets)
        loss.backward()
        if clip:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
        else:
            optimizer.step()
