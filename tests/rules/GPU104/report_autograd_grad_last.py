"""Gradients computed with torch.autograd.grad and written by hand; nothing
uses the graph again after the call."""
import torch


def train(model, loader, lr):
    params = [p for p in model.parameters() if p.requires_grad]
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        grads = torch.autograd.grad(loss, params, retain_graph=True)  # expect: GPU104
        with torch.no_grad():
            for p, g in zip(params, grads):
                p -= lr * g
