import torch
import torch.nn as nn

from data import speech_loader

gru = nn.GRU(input_size=80, hidden_size=320, num_layers=3, batch_first=True).cuda()
fc = nn.Linear(320, 40).cuda()
optimizer = torch.optim.Adam(list(gru.parameters()) + list(fc.parameters()), lr=1e-3)

for epoch in range(20):
    for feats, labels in speech_loader:
        feats = feats.cuda()
        h0 = torch.zeros(3, feats.size(0), 320, device="cuda")
        optimizer.zero_grad()
        out, h_n = gru(feats, h0)
        loss = nn.functional.cross_entropy(fc(h_n[-1]), labels.cuda())
        loss.backward()
        optimizer.step()
