import torch
import torch.nn as nn

from data import stream_batches

lstm = nn.LSTM(input_size=64, hidden_size=256, num_layers=2, batch_first=True).cuda()
head = nn.Linear(256, 64).cuda()
params = list(lstm.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3)

h = torch.zeros(2, 32, 256, device="cuda")
c = torch.zeros(2, 32, 256, device="cuda")
for x, y in stream_batches(batch_size=32, seq_len=50):
    x, y = x.cuda(), y.cuda()
    optimizer.zero_grad()
    out, (h, c) = lstm(x, (h, c))  # expect: GPU102
    loss = nn.functional.mse_loss(head(out), y)
    loss.backward()
    optimizer.step()
