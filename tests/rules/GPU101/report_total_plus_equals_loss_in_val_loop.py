import torch
import torch.nn as nn

from data import train_loader, val_loader
from model import SmallCNN

model = SmallCNN().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(20):
    model.train()
    for x, y in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()

    model.eval()
    total = 0
    for x, y in val_loader:
        loss = criterion(model(x.cuda()), y.cuda())  # expect: GPU103
        total += loss  # expect: GPU101
    print(f"epoch {epoch}: val loss {total.item() / len(val_loader):.4f}")
