"""The loop clears the gradients in its mixed-precision branch only: the
full-precision branch, the one taken without `--amp`, steps on the sum of
every earlier iteration's gradients."""
import torch


def train_one_epoch(model, criterion, loader, optimizer, scaler, use_amp, max_norm):
    model.train()
    for images, targets in loader:
        with torch.autocast("cuda", enabled=use_amp):
            loss = criterion(model(images.cuda()), targets.cuda())
        if use_amp:
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()  # expect: GPU001
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
