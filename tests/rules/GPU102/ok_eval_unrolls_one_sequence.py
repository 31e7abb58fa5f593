# Evaluation unrolls one input sequence from a fresh state on each call (GPU103 with --pedantic, never GPU102).
import torch
import torch.nn as nn


class RNN(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.n_hidden = n_hidden
        self.i2h = nn.Linear(n_in + n_hidden, n_hidden)
        self.i2o = nn.Linear(n_in + n_hidden, n_out)

    def forward(self, x, hidden):
        combined = torch.cat((x, hidden), 1)
        return self.i2o(combined), self.i2h(combined)

    def init_hidden(self):
        return torch.zeros(1, self.n_hidden)


rnn = RNN(57, 128, 18)


def evaluate(line_tensor):
    hidden = rnn.init_hidden()
    for i in range(line_tensor.size(0)):
        output, hidden = rnn(line_tensor[i], hidden)  # pedantic: GPU103
    return output
