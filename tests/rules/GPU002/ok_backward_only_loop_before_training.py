"""A Fisher-information estimate runs backward-only passes before the
training loop, and a one-off debug backward checks the gradients first:
neither is part of the training loop's steps, whose clear comes before
their own forward."""
import torch
import torch.nn.functional as F


def fisher_then_train(model, loader, optimizer, epochs):
    fisher = {name: torch.zeros_like(p) for name, p in model.named_parameters()}
    for x, y in loader:
        model.zero_grad()
        F.cross_entropy(model(x), y).backward()
        for name, p in model.named_parameters():
            fisher[name] += p.grad.detach() ** 2
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
    return fisher


def check_then_train(model, loader, optimizer, epochs):
    x, y = next(iter(loader))
    F.cross_entropy(model(x), y).backward()
    print([p.grad.norm().item() for p in model.parameters() if p.grad is not None])
    optimizer.zero_grad()
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            F.cross_entropy(model(x), y).backward()
            optimizer.step()


def check_gradients_then_step_once(model, batches, optimizer, clear_each_pass):
    for x, y in batches:
        F.cross_entropy(model(x), y).backward()
        assert all(p.grad is not None for p in model.parameters())
        if clear_each_pass:
            optimizer.zero_grad()
    optimizer.step()
