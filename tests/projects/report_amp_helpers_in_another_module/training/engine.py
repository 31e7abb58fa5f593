import torch


def train_one_epoch(model, loader, optimizer, scaler, max_norm=1.0):
    model.train()
    for inputs, targets in loader:
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda"):
            loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)  # expect: GPU401
        scaler.step(optimizer)
        scaler.update()
