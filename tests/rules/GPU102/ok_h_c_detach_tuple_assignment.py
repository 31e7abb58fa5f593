import torch
import torch.nn as nn

from data import continuous_stream

cell = nn.LSTMCell(input_size=32, hidden_size=128).cuda()
out_layer = nn.Linear(128, 32).cuda()
optimizer = torch.optim.Adam(list(cell.parameters()) + list(out_layer.parameters()), lr=1e-3)

h = torch.zeros(16, 128, device="cuda")
c = torch.zeros(16, 128, device="cuda")
for frame, next_frame in continuous_stream(batch_size=16):
    h, c = h.detach(), c.detach()
    optimizer.zero_grad()
    h, c = cell(frame.cuda(), (h, c))
    loss = nn.functional.mse_loss(out_layer(h), next_frame.cuda())
    loss.backward()
    optimizer.step()
