import torch
import torch.nn as nn

from data import loader

lstm = nn.LSTM(input_size=300, hidden_size=512, batch_first=True, bidirectional=True).cuda()
clf = nn.Linear(1024, 5).cuda()
optimizer = torch.optim.Adam(list(lstm.parameters()) + list(clf.parameters()), lr=1e-3)

for epoch in range(10):
    for embeddings, labels in loader:
        optimizer.zero_grad()
        out, _ = lstm(embeddings.cuda())
        loss = nn.functional.cross_entropy(clf(out[:, -1]), labels.cuda())
        loss.backward()
        optimizer.step()
