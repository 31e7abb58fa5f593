"""A script keeps its model in a global. `evaluate()` takes no argument
and switches that global to eval mode; the step loop of `train_epoch`
calls it every `eval_every` steps, and `.train()` runs only at the top of
each epoch."""
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(8, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters())


def evaluate(batches):
    model.eval()
    with torch.no_grad():
        return sum(nn.functional.mse_loss(model(x), y).item() for x, y in batches)


def train_epoch(batches, dev_batches, eval_every=100):
    model.train()
    for step, (x, y) in enumerate(batches):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        if step % eval_every == 0:
            print(step, evaluate(dev_batches))  # expect: GPU004
