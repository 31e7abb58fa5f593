# The model forward overwrites the incoming state, so feeding it back chains nothing.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.i2h = nn.Linear(10, 16)
        self.i2o = nn.Linear(16, 2)

    def forward(self, input, hidden):
        hidden = self.i2h(input)
        output = self.i2o(hidden)
        return output, hidden


model = Net()
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss()
hidden = torch.zeros(1, 16)
for x, y in loader:
    output, hidden = model(x, hidden)  # noisy: GPU102
    optimizer.zero_grad()
    loss = criterion(output, y)
    loss.backward()
    optimizer.step()
