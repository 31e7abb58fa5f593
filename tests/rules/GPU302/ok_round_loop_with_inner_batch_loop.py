"""Each round of the outer loop draws one permutation on the host and
moves it, then runs a whole batch loop over it, with an optimizer step
per batch: the draw runs once per round, amortized over the inner steps."""
import torch
import torch.nn.functional as F


def train(model, optimizer, data, targets, rounds=20, batch=64):
    device = data.device
    for _ in range(rounds):
        order = torch.randperm(data.size(0)).to(device)
        for start in range(0, data.size(0), batch):
            rows = order[start:start + batch]
            loss = F.cross_entropy(model(data[rows]), targets[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
