import functools

import torch

from data import val_loader
from model import Net


def no_grad_eval(fn):
    @functools.wraps(fn)
    def wrapper(model, *args, **kwargs):
        was_training = model.training
        model.eval()
        with torch.no_grad():
            result = fn(model, *args, **kwargs)
        model.train(was_training)
        return result
    return wrapper


@no_grad_eval
def accuracy(model, loader):
    hits = 0
    for x, y in loader:
        hits += (model(x.cuda()).argmax(1) == y.cuda()).sum().item()
    return hits / len(loader.dataset)


model = Net().cuda()
print(accuracy(model, val_loader))
