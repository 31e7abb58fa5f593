import torch
import torch.nn as nn

from data import batchify, corpus, get_batch
from model import RNNModel


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


train_data = batchify(corpus.train, 20).cuda()
model = RNNModel("LSTM", ntoken=len(corpus.dictionary), ninp=650, nhid=650, nlayers=2).cuda()
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=20)

hidden = model.init_hidden(20)
for batch, i in enumerate(range(0, train_data.size(0) - 1, 35)):
    data, targets = get_batch(train_data, i)
    hidden = repackage_hidden(hidden)
    optimizer.zero_grad()
    output, hidden = model(data, hidden)
    loss = criterion(output, targets)
    loss.backward()
    optimizer.step()
