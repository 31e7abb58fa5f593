import torch


def fit(model, loader, optimizer, scaler, max_norm):
    for inputs, targets in loader:
        optimizer.zero_grad()
        with torch.autocast("cuda"):
            loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        if max_norm:
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            if not torch.isfinite(norm):
                print("non-finite gradient norm", norm)
        scaler.step(optimizer)
        scaler.update()
