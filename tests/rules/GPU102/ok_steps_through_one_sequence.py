# Stepping an LSTM through the elements of one sequence is an ordinary unroll.
import torch
import torch.nn as nn

torch.manual_seed(1)
lstm = nn.LSTM(3, 3)
inputs = [torch.randn(1, 3) for _ in range(5)]
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))

for i in inputs:
    # step through the sequence one element at a time
    out, hidden = lstm(i.view(1, 1, -1), hidden)

print(out, hidden)
