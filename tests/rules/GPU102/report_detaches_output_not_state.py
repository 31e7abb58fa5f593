import torch
import torch.nn as nn

from data import series_loader

lstm = nn.LSTM(input_size=8, hidden_size=64, batch_first=True).cuda()
head = nn.Linear(64, 1).cuda()
optimizer = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=1e-3)
preds = []

state = None
for x, y in series_loader:
    optimizer.zero_grad()
    out, state = lstm(x.cuda(), state)  # expect: GPU102
    pred = head(out[:, -1])
    loss = nn.functional.mse_loss(pred, y.cuda())
    loss.backward()
    optimizer.step()
    preds.append(pred.detach())
