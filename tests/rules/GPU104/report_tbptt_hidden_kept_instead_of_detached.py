"""retain_graph=True added to silence "Trying to backward through the graph a
second time": the hidden state carries every earlier step's graph."""
import torch
from torch import nn

lstm = nn.LSTM(64, 128, batch_first=True).cuda()
head = nn.Linear(128, 64).cuda()
params = list(lstm.parameters()) + list(head.parameters())
optimizer = torch.optim.SGD(params, lr=0.1)
criterion = nn.MSELoss()


def train(chunks):
    state = None
    for inputs, targets in chunks:
        optimizer.zero_grad()
        output, state = lstm(inputs.cuda(), state)  # expect: GPU102
        loss = criterion(head(output), targets.cuda())
        loss.backward(retain_graph=True)  # expect: GPU104
        optimizer.step()
