"""A learnable prompt tensor built here and handed to the optimizer: its
gradient cleared between the backward and the step is the one the step
applies."""
import torch
import torch.nn.functional as F


def tune_prompt(model, loader, steps):
    prompt = torch.zeros(1, 16, 768, requires_grad=True)
    optimizer = torch.optim.SGD([prompt], lr=0.1)
    for tokens, labels in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(tokens, prompt), labels)
        loss.backward()
        prompt.grad.zero_()  # expect: GPU002
        optimizer.step()
