# Each pass builds its own model and optimizer and takes one step: no gradient survives into the next pass.
import torch
import torch.nn as nn


def one_step_each(configs, x):
    norms = []
    for width in configs:
        model = nn.Sequential(nn.Linear(8, width), nn.ReLU(), nn.Linear(width, 1))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        model(x).sum().backward()
        optimizer.step()
        norms.append(model[0].weight.norm().item())
    return norms
