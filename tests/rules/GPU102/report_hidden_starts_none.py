import torch
import torch.nn as nn

from data import music_loader

rnn = nn.LSTM(88, 512, num_layers=3, batch_first=True, dropout=0.3).cuda()
proj = nn.Linear(512, 88).cuda()
optimizer = torch.optim.RMSprop(list(rnn.parameters()) + list(proj.parameters()), lr=1e-3)
criterion = nn.BCEWithLogitsLoss()

hidden = None
for epoch in range(100):
    for notes, next_notes in music_loader:
        optimizer.zero_grad()
        features, hidden = rnn(notes.cuda(), hidden)  # expect: GPU102
        loss = criterion(proj(features), next_notes.cuda())
        loss.backward()
        optimizer.step()
