import torch
import torch.nn as nn

from data import stream_batches

lstm = nn.LSTM(input_size=64, hidden_size=256, num_layers=2, batch_first=True).cuda()
head = nn.Linear(256, 64).cuda()
optimizer = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=1e-3)

h = torch.zeros(2, 32, 256, device="cuda")
c = torch.zeros(2, 32, 256, device="cuda")
for x, y in stream_batches(batch_size=32, seq_len=50):
    h.detach_()
    c.detach_()
    optimizer.zero_grad()
    out, (h, c) = lstm(x.cuda(), (h, c))
    loss = nn.functional.mse_loss(head(out), y.cuda())
    loss.backward()
    optimizer.step()
