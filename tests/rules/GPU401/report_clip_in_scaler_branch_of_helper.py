import torch


def scaled_backward(loss, scaler):
    if scaler is None:
        loss.backward()
    else:
        scaler.scale(loss).backward()


def finish_step(net, optimizer, scaler, max_norm):
    if scaler is not None:
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)  # expect: GPU401
        scaler.step(optimizer)
        scaler.update()
    else:
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        optimizer.step()


def train(net, loader, optimizer, scaler, max_norm=1.0):
    for images, targets in loader:
        optimizer.zero_grad()
        with torch.autocast("cuda", enabled=scaler is not None):
            loss = torch.nn.functional.cross_entropy(net(images.cuda()), targets.cuda())
        scaled_backward(loss, scaler)
        finish_step(net, optimizer, scaler, max_norm)
