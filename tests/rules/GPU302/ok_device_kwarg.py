import torch
import torch.nn as nn

from data import train_loader

device = torch.device("cuda")
rnn = nn.LSTM(64, 128, batch_first=True).to(device)
optimizer = torch.optim.Adam(rnn.parameters(), lr=1e-3)

for x, y in train_loader:
    x, y = x.to(device), y.to(device)
    h0 = torch.zeros(1, x.size(0), 128, device=device)
    c0 = torch.zeros_like(h0)
    out, _ = rnn(x, (h0, c0))
    loss = nn.functional.mse_loss(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
