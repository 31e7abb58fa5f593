import torch


def scaled_backward(loss, scaler):
    if scaler is None:
        loss.backward()
    else:
        scaler.scale(loss).backward()


def finish_step(net, optimizer, scaler, max_norm):
    if scaler is not None:
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(optimizer)
        scaler.update()
    else:
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        optimizer.step()


def not_scaled_step(net, optimizer, scaler, max_norm):
    if not scaler:
        torch.nn.utils.clip_grad_value_(net.parameters(), max_norm)
        optimizer.step()


def train(net, loader, optimizer, scaler, max_norm=1.0):
    for images, targets in loader:
        optimizer.zero_grad()
        with torch.autocast("cuda", enabled=scaler is not None):
            loss = torch.nn.functional.cross_entropy(net(images.cuda()), targets.cuda())
        scaled_backward(loss, scaler)
        finish_step(net, optimizer, scaler, max_norm)
        not_scaled_step(net, optimizer, scaler, max_norm)
