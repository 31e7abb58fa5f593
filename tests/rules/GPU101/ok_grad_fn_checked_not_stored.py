import torch


def train_epoch(model, loader, optimizer, criterion):
    model.train()
    for x, y in loader:
        loss = criterion(model(x.cuda()), y.cuda())
        if loss.grad_fn is None:
            raise RuntimeError("loss does not require grad: are all parameters frozen?")
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
