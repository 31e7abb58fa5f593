# The same run_epoch() trains and scores the dev set: the dev call passes optimizer=None, so the backward behind
# `if optimizer is not None` never runs there, and the caller put the model in eval mode with grad still on.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def run_epoch(model, loader, criterion, optimizer=None):
    total, correct = 0.0, 0
    for tokens, lengths, target in loader:
        logits = model(tokens, lengths)  # expect: GPU103
        loss = criterion(logits.flatten(0, 1), target.flatten())
        if optimizer is not None:
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
        total += loss.item()
        correct += (logits.argmax(-1) == target).sum().item()
    return total / len(loader), correct


def main(model, train_set, dev_set, epochs=10):
    criterion = nn.CrossEntropyLoss(ignore_index=0)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
    dev_loader = DataLoader(dev_set, batch_size=32)
    for epoch in range(epochs):
        model.train()
        run_epoch(model, train_loader, criterion, optimizer)
        model.eval()
        dev_loss, dev_correct = run_epoch(model, dev_loader, criterion)
        print(f"epoch {epoch}: dev loss {dev_loss:.3f}, {dev_correct} correct")
