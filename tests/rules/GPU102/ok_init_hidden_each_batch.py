import torch
import torch.nn as nn

from data import sentence_loader
from model import BiLSTMTagger

model = BiLSTMTagger(vocab=20000, tags=17, hidden=256).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss(ignore_index=-100)

for epoch in range(10):
    for tokens, tags in sentence_loader:
        hidden = model.init_hidden(tokens.size(0))
        optimizer.zero_grad()
        scores, hidden = model(tokens.cuda(), hidden)
        loss = criterion(scores.view(-1, 17), tags.cuda().view(-1))
        loss.backward()
        optimizer.step()
