import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    for inputs, targets in loader:
        try:
            optimizer.zero_grad()
            loss = criterion(model(inputs.cuda()), targets.cuda())
            loss.backward()
            optimizer.step()
        except RuntimeError as e:
            if "out of memory" not in str(e):
                raise
            print("| WARNING: ran out of memory, skipping batch")
            for p in model.parameters():
                p.grad = None
            torch.cuda.empty_cache()
