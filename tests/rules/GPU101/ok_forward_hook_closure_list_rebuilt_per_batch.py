import torch
import torch.nn.functional as F


def train(model, loader, optimizer, epochs):
    maps = []

    def tap(module, inputs, output):
        maps.append(output)

    model.layer3.register_forward_hook(tap)
    for epoch in range(epochs):
        for images, labels in loader:
            maps = []
            logits = model(images)
            loss = F.cross_entropy(logits, labels) + 0.1 * sum(m.abs().mean() for m in maps)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
