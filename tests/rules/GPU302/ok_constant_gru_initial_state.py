import torch
import torch.nn as nn

from data import train_loader

device = torch.device("cuda")
rnn = nn.GRU(128, 256, num_layers=2, batch_first=True).to(device)
head = nn.Linear(256, 10).to(device)
optimizer = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=1e-3)

for epoch in range(20):
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        h0 = torch.zeros(2, x.size(0), 256).to(device)
        out, _ = rnn(x, h0)
        loss = nn.functional.cross_entropy(head(out[:, -1]), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
