import torch
import torch.nn as nn

from data import batches

lstm = nn.LSTM(128, 512, num_layers=2).cuda()
decoder = nn.Linear(512, 10000).cuda()
optimizer = torch.optim.SGD(list(lstm.parameters()) + list(decoder.parameters()), lr=1.0)
criterion = nn.CrossEntropyLoss()

hidden = (torch.zeros(2, 32, 512, device="cuda"), torch.zeros(2, 32, 512, device="cuda"))
for x, y in batches(seq_len=35, batch_size=32):
    optimizer.zero_grad()
    out, hidden = lstm(x.cuda(), hidden)  # expect: GPU102
    loss = criterion(decoder(out).view(-1, 10000), y.cuda().view(-1))
    loss.backward(retain_graph=True)  # expect: GPU104
    optimizer.step()
