# Evaluation walks the token stream in bptt-sized chunks and carries the state with grad on.
# `model.py` is not in the project, so only the name says RNNModel is a module: GPU103
# is reported with --pedantic; so is GPU102 in an evaluation loop (its root cause is GPU103's).
import torch
import torch.nn as nn

from model import RNNModel

model = RNNModel(ntoken=10000, ninp=200, nhid=200).cuda()
criterion = nn.NLLLoss()
bptt = 35


def run_eval(data_source, batch_size=10):
    total = 0.0
    hidden = model.init_hidden(batch_size)
    for i in range(0, data_source.size(0) - 1, bptt):
        data, targets = data_source[i:i + bptt], data_source[i + 1:i + 1 + bptt].view(-1)
        output, hidden = model(data, hidden)  # pedantic: GPU102, GPU103
        total += len(data) * criterion(output.view(-1, 10000), targets).item()
    return total / len(data_source)
