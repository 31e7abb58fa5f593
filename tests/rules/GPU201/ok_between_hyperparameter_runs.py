import gc

import torch
import torch.nn.functional as F

from data import train_loader
from model import Net


def train(lr, epochs=5):
    model = Net().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x.cuda()), y.cuda())
            loss.backward()
            optimizer.step()
    return loss.item()


results = {}
for lr in [1e-2, 3e-3, 1e-3, 3e-4]:
    results[lr] = train(lr)
    gc.collect()
    torch.cuda.empty_cache()
print(results)
