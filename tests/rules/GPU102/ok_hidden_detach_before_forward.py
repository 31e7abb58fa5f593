import torch
import torch.nn as nn

from data import stream_batches

gru = nn.GRU(input_size=64, hidden_size=256, batch_first=True).cuda()
head = nn.Linear(256, 64).cuda()
optimizer = torch.optim.Adam(list(gru.parameters()) + list(head.parameters()), lr=1e-3)

hidden = torch.zeros(1, 32, 256, device="cuda")
for x, y in stream_batches(batch_size=32, seq_len=50):
    hidden = hidden.detach()
    optimizer.zero_grad()
    out, hidden = gru(x.cuda(), hidden)
    loss = nn.functional.mse_loss(head(out), y.cuda())
    loss.backward()
    optimizer.step()
