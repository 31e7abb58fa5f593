import torch
import torch.nn.functional as F

from data import train_loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    total_loss = 0.0
    for data, target in train_loader:
        optimizer.zero_grad()
        loss = F.nll_loss(model(data.cuda()), target.cuda())
        loss.backward()
        optimizer.step()
        total_loss += float(loss)
    print(epoch, total_loss / len(train_loader))
