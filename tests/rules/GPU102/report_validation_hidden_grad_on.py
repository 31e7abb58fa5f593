import math

import torch
import torch.nn as nn

from data import val_batches
from model import RNNModel

model = RNNModel("LSTM", ntoken=10000, ninp=650, nhid=650, nlayers=2).cuda()
model.load_state_dict(torch.load("lm.pt", map_location="cuda"))
criterion = nn.NLLLoss()

model.eval()
total_loss = 0.0
hidden = model.init_hidden(10)
for data, targets in val_batches(batch_size=10, bptt=35):
    output, hidden = model(data.cuda(), hidden)  # expect: GPU103  # pedantic: GPU102
    total_loss += len(data) * criterion(output, targets.cuda()).item()
print("val ppl", math.exp(total_loss / len(val_batches)))
