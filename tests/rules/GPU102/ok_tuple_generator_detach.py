import torch
import torch.nn as nn

from data import corpus, train_batches
from model import WordLM

model = WordLM(vocab=len(corpus.vocab), emb=400, hidden=1150, layers=3).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()

for epoch in range(40):
    model.train()
    hidden = model.init_hidden(batch_size=80)
    for inputs, targets in train_batches(bptt=70):
        hidden = tuple(h.detach() for h in hidden)
        optimizer.zero_grad()
        logits, hidden = model(inputs.cuda(), hidden)
        loss = criterion(logits.view(-1, logits.size(-1)), targets.cuda().view(-1))
        loss.backward()
        optimizer.step()
