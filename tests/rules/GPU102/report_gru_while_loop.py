import torch
import torch.nn as nn

from data import SensorStream

gru = nn.GRU(input_size=12, hidden_size=128, batch_first=True).cuda()
readout = nn.Linear(128, 1).cuda()
optimizer = torch.optim.Adam(list(gru.parameters()) + list(readout.parameters()), lr=5e-4)
stream = SensorStream("sensors.parquet", window=100, batch_size=16)

state = torch.zeros(1, 16, 128, device="cuda")
step = 0
while stream.has_next():
    window, target = stream.next()
    optimizer.zero_grad()
    seq_out, state = gru(window.cuda(), state)  # expect: GPU102
    loss = nn.functional.l1_loss(readout(seq_out[:, -1]), target.cuda())
    loss.backward()
    optimizer.step()
    step += 1
