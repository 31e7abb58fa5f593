import torch
import torch.nn as nn

from data import paired_stream

encoder = nn.LSTM(input_size=256, hidden_size=512, num_layers=2, batch_first=True).cuda()
clf = nn.Linear(512, 3).cuda()
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(clf.parameters()), lr=1e-3)

enc_state = None
for epoch in range(5):
    for segment, label in paired_stream(batch_size=24):
        optimizer.zero_grad()
        enc_out, enc_state = encoder(segment.cuda(), enc_state)  # expect: GPU102
        loss = nn.functional.cross_entropy(clf(enc_out[:, -1]), label.cuda())
        loss.backward()
        optimizer.step()
