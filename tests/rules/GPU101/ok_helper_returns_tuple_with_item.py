# The helper returns (output, loss.item()): the unpacked loss is a float.
import torch
import torch.nn as nn

rnn = nn.Linear(8, 4)
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.005)


def train(x, y):
    optimizer.zero_grad()
    output = rnn(x)
    loss = criterion(output, y)
    loss.backward()
    optimizer.step()
    return output, loss.item()


current_loss = 0
all_losses = []
for it in range(1, 1001):
    output, loss = train(torch.randn(1, 8), torch.tensor([1]))
    current_loss += loss
    if it % 100 == 0:
        all_losses.append(current_loss / 100)
        current_loss = 0
