# Evaluation enters no_grad through a helper of the file that returns the
# manager (a no-op context for old versions of torch).
import contextlib

import torch
import torch.nn as nn


def no_grad_context():
    if float(torch.__version__[0:3]) >= 0.4:
        return torch.no_grad()
    return contextlib.suppress()


def evaluate(model: nn.Module, loader):
    model.eval()
    total = 0.0
    with no_grad_context():
        for x, y in loader:
            total += nn.functional.cross_entropy(model(x), y).item()
    return total
