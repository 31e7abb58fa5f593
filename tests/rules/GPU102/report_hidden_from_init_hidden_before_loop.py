import torch
import torch.nn as nn

from data import batchify, get_batch, corpus
from model import RNNModel

bptt = 35
train_data = batchify(corpus.train, 20).cuda()
model = RNNModel("LSTM", ntoken=len(corpus.dictionary), ninp=650, nhid=650, nlayers=2).cuda()
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=20)

model.train()
hidden = model.init_hidden(20)
for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
    data, targets = get_batch(train_data, i)
    optimizer.zero_grad()
    output, hidden = model(data, hidden)  # expect: GPU102
    loss = criterion(output, targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    optimizer.step()
