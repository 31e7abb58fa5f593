import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(32, 32)
        self.head = nn.Linear(32, 100)

    def forward(self, x, state):
        out, state = self.lstm(x, state)
        return self.head(out), state


model = LM()
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
state = None
for x, y in batches:
    optimizer.zero_grad()
    if state is not None:
        state = tuple(each.detach() for each in state) if isinstance(state, tuple) else state.detach()
    logits, state = model(x, state)
    nn.functional.cross_entropy(logits.flatten(0, 1), y.flatten()).backward()
    optimizer.step()
