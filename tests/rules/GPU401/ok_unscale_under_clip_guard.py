import torch


def train_one_epoch(model, loader, optimizer, scaler, clip_grad=None):
    model.train()
    for inputs, targets in loader:
        with torch.autocast("cuda"):
            loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        if clip_grad is not None:
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad)
        scaler.step(optimizer)
        scaler.update()
