import itertools

import torch
import torch.nn as nn

from data import get_stream

model = nn.Linear(512, 512).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
stream = itertools.cycle(get_stream())

step = 0
max_steps = 10_000
while step < max_steps:
    x, target = next(stream)
    x, target = x.cuda(), target.cuda()
    pred = model(x)
    loss = nn.functional.mse_loss(pred, target)
    loss.backward()  # expect: GPU001
    optimizer.step()
    step += 1
    if step % 500 == 0:
        print(step, loss.item())
