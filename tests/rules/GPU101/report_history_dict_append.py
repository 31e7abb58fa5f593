import json
from collections import defaultdict

import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
history = defaultdict(list)

for epoch in range(20):
    for x, y in loader:
        optimizer.zero_grad()
        logits = model(x.cuda())
        loss = F.cross_entropy(logits, y.cuda())
        loss.backward()
        optimizer.step()
        history["loss"].append(loss)  # expect: GPU101

with open("history.json", "w") as f:
    json.dump({k: [v.item() for v in vals] for k, vals in history.items()}, f)
