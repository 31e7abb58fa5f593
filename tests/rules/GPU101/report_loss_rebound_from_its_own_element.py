"""The model returns a tuple and the loss name is bound again to one of
its elements (`loss = loss[1]`) before it is kept: following the name
back must stop at the earlier binding, not at this one."""
import torch
import torch.nn as nn


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 1)
        self.b = nn.Linear(8, 1)

    def forward(self, x):
        return self.a(x).mean(), self.b(x).mean()


def evaluate(loader):
    model = TwoHeads().cuda()
    losses = []
    for batch in loader:
        loss = model(batch.cuda())
        loss = loss[1]
        losses.append(loss)  # expect: GPU101
    return sum(losses) / len(losses)
