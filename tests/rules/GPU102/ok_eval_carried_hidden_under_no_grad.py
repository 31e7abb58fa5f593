import math

import torch
import torch.nn as nn

from data import val_batches
from model import RNNModel

criterion = nn.NLLLoss()


def evaluate(model, batches, batch_size=10):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(batch_size)
    with torch.no_grad():
        for data, targets in batches:
            output, hidden = model(data.cuda(), hidden)
            total_loss += len(data) * criterion(output, targets.cuda()).item()
    return total_loss / len(batches)


model = RNNModel("LSTM", ntoken=10000, ninp=650, nhid=650, nlayers=2).cuda()
print("val ppl", math.exp(evaluate(model, val_batches(batch_size=10, bptt=35))))
