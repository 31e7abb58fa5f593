# The loss is rebound (`loss = loss.mean()`, `loss = loss / accum`) before it is kept with its graph.
import torch
import torch.nn as nn

model = nn.Linear(32, 4).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss(reduction="none")
accum = 4
history = []

for step, (x, y) in enumerate(loader):
    loss = criterion(model(x.cuda()), y.cuda())
    loss = loss.mean()
    loss = loss / accum
    loss.backward()
    if (step + 1) % accum == 0:
        optimizer.step()
        optimizer.zero_grad()
    history.append(loss)  # expect: GPU101
