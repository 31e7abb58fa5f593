import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()

torch.save(model.state_dict(), "net.pt")
del model, optimizer
torch.cuda.empty_cache()
print(f"reserved after cleanup: {torch.cuda.memory_reserved() / 2**20:.0f} MiB")
