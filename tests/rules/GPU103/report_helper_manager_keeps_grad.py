# The helper returns a manager that only times the loop: grad stays on.
# (A helper returning torch.no_grad() would turn it off.)
import contextlib

import torch
import torch.nn as nn


def no_grad_context():
    if float(torch.__version__[0:3]) >= 0.4:
        return contextlib.nullcontext()
    return timer()


def evaluate(model: nn.Module, loader):
    model.eval()
    total = 0.0
    with no_grad_context():
        for x, y in loader:
            total += nn.functional.cross_entropy(model(x), y).item()  # expect: GPU103
    return total
