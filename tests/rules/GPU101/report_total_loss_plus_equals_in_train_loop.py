import torch
import torch.nn.functional as F

from data import train_loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    model.train()
    total_loss = 0.0
    for data, target in train_loader:
        data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        total_loss += loss  # expect: GPU101
    print(f"epoch {epoch}: avg loss {total_loss / len(train_loader):.4f}")
