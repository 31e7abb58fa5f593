# Distributed autograd: each iteration's gradients live in a fresh context, not in `.grad`; nothing accumulates.
import torch
import torch.distributed.autograd as dist_autograd
from torch.distributed.optim import DistributedOptimizer


def train(pipe, loader, params):
    opt = DistributedOptimizer(torch.optim.SGD, params, lr=0.05)
    for x, y in loader:
        with dist_autograd.context() as context_id:
            loss = pipe(x).remote().sum()
            loss.backward(context_id)
            opt.step(context_id)
