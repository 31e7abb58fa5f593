import torch
import torch.nn.functional as F

from data import make_batches
from model import GRULanguageModel

model = GRULanguageModel(vocab=5000, hidden=256).cuda()
optimizer = torch.optim.Adagrad(model.parameters(), lr=0.1)
hidden = model.init_hidden(batch_size=32)

for epoch in range(15):
    for x, y in make_batches(batch_size=32, seq_len=30):
        optimizer.zero_grad()
        logits, hidden = model(x.cuda(), hidden)
        loss = F.cross_entropy(logits.reshape(-1, 5000), y.cuda().reshape(-1))
        loss.backward()
        optimizer.step()
        hidden = hidden.detach()
