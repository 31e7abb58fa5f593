import torch
import torch.nn as nn

from data import get_batch, train_data
from model import RNNModel


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.clone()
    return tuple(repackage_hidden(v) for v in h)


model = RNNModel("GRU", ntoken=33278, ninp=400, nhid=400, nlayers=2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=20)
criterion = nn.NLLLoss()

hidden = model.init_hidden(20)
for i in range(0, train_data.size(0) - 1, 35):
    data, targets = get_batch(train_data, i)
    hidden = repackage_hidden(hidden)
    optimizer.zero_grad()
    output, hidden = model(data, hidden)  # expect: GPU102
    loss = criterion(output, targets)
    loss.backward()
    optimizer.step()
