"""An optimizer test: a named closure clears, runs a forward and a backward,
and is evaluated once on its own and again by every step."""
import torch


def check_optimizer(constructor, weight, bias, x, scheduler):
    optimizer = constructor([weight, bias])

    def closure():
        optimizer.zero_grad()
        loss = (weight.mv(x) + bias).pow(2).sum()
        loss.backward()
        return loss

    initial = closure().item()
    for _ in range(200):
        scheduler.step(closure())
        optimizer.step(closure)
    assert closure().item() < initial
