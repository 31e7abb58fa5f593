import torch
from torch import nn


def train(model, loader, optimizer, epochs):
    ce = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for x, y, aux_y in loader:
            logits, aux_logits = model(x)
            loss = ce(logits, y) + 0.4 * ce(aux_logits, aux_y)
            optimizer.zero_grad()
            loss.backward(retain_graph=True)  # expect: GPU104
            optimizer.step()
