"""A training script with three pitfalls, for `gpulint verify PATH`: the
runner lints it, then replays only the rules it finds."""
import torch
import torch.nn.functional as F


def train(model, loader, val_loader, optimizer, epochs):
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        model.eval()
        total = 0
        for x, y in val_loader:
            loss = F.cross_entropy(model(x), y)
            total += loss
        print(epoch, float(total))
        torch.cuda.empty_cache()
