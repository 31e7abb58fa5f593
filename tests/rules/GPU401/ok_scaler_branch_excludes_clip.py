import torch


def run_epoch(model, loader, optimizer, scaler=None, max_norm=1.0):
    for x, y in loader:
        optimizer.zero_grad(set_to_none=True)
        if scaler is not None:
            with torch.autocast("cuda"):
                loss = torch.nn.functional.mse_loss(model(x), y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
