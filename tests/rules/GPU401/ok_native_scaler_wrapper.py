import torch


class NativeScalerWithClip:
    """Scales the loss, unscales before clipping, steps."""

    def __init__(self):
        self._scaler = torch.cuda.amp.GradScaler()

    def __call__(self, loss, optimizer, clip_grad=None, parameters=None):
        self._scaler.scale(loss).backward()
        if clip_grad is not None:
            self._scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(parameters, clip_grad)
        self._scaler.step(optimizer)
        self._scaler.update()


def train(model, loader, optimizer):
    loss_scaler = NativeScalerWithClip()
    for samples, targets in loader:
        with torch.cuda.amp.autocast():
            loss = torch.nn.functional.cross_entropy(model(samples), targets)
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, clip_grad=3.0, parameters=model.parameters())
