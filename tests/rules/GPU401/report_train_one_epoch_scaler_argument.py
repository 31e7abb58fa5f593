import torch


def train_one_epoch(model, criterion, data_loader, optimizer, device, epoch, scaler, clip_grad=None):
    model.train()
    for samples, targets in data_loader:
        samples = samples.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        with torch.cuda.amp.autocast():
            outputs = model(samples)
            loss = criterion(outputs, targets)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        if clip_grad is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad)  # expect: GPU401
        scaler.step(optimizer)
        scaler.update()
