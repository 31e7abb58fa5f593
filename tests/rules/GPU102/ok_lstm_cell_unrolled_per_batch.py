import torch
import torch.nn as nn

from data import sequence_loader

cell = nn.LSTMCell(input_size=16, hidden_size=64).cuda()
readout = nn.Linear(64, 1).cuda()
optimizer = torch.optim.Adam(list(cell.parameters()) + list(readout.parameters()), lr=1e-3)

for epoch in range(50):
    for seq, target in sequence_loader:
        seq, target = seq.cuda(), target.cuda()
        h = torch.zeros(seq.size(0), 64, device="cuda")
        c = torch.zeros(seq.size(0), 64, device="cuda")
        for t in range(seq.size(1)):
            h, c = cell(seq[:, t], (h, c))
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(readout(h).squeeze(-1), target)
        loss.backward()
        optimizer.step()
