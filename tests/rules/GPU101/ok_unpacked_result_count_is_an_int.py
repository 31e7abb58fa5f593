"""A step helper returns its losses and the batch size; the loop unpacks
the result through a name and sums the batch size, a Python int."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)


def train_step(model, batch, optimizer):
    x, y = batch
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return {"loss": loss}, len(x)


def train(loader, world_size):
    model = Net().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    seen = 0
    for batch in loader:
        result = train_step(model, batch, optimizer)
        if result is None:
            continue
        losses, batch_size = result
        seen += batch_size * world_size
        print(losses["loss"].item())
    return seen
