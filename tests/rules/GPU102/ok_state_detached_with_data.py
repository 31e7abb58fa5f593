# The state is detached with `.data` right after the forward.
import torch
from torch import nn

rnn = nn.RNN(1, 32, batch_first=True)
head = nn.Linear(32, 1)
optimizer = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=0.02)
loss_func = nn.MSELoss()
h_state = None

for step in range(100):
    x = torch.randn(1, 10, 1)
    y = torch.randn(1, 10, 1)
    r_out, h_state = rnn(x, h_state)
    h_state = h_state.data  # repack: break the connection to the last iteration
    loss = loss_func(head(r_out), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
