import torch
from torch import nn


def train_epoch(model, loader, optimizer, device):
    model.train()
    criterion = nn.MSELoss()
    running = 0.0
    for step, batch in enumerate(loader):
        inputs, targets = batch
        inputs.to(device)  # expect: GPU003
        targets = targets.to(device)
        optimizer.zero_grad()
        preds = model(inputs)
        loss = criterion(preds, targets)
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / (step + 1)
