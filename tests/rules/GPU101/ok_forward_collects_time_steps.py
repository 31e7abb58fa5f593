# A module forward collects its time steps in a local list and concatenates them.
import torch
import torch.nn as nn


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(1, 51)
        self.linear = nn.Linear(51, 1)

    def forward(self, x, future=0):
        outputs = []
        h = torch.zeros(x.size(0), 51)
        c = torch.zeros(x.size(0), 51)
        for xt in x.split(1, dim=1):
            h, c = self.cell(xt, (h, c))
            outputs.append(self.linear(h))
        for _ in range(future):
            h, c = self.cell(outputs[-1], (h, c))
            outputs += [self.linear(h)]
        return torch.cat(outputs, dim=1)
