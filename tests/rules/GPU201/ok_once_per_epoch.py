import torch
import torch.nn as nn

from data import train_loader, val_loader
from model import Net

model = Net().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(90):
    model.train()
    for images, labels in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(images.cuda()), labels.cuda())
        loss.backward()
        optimizer.step()
    torch.cuda.empty_cache()
    model.eval()
    with torch.no_grad():
        correct = sum((model(x.cuda()).argmax(1) == y.cuda()).sum().item() for x, y in val_loader)
    print(epoch, correct / len(val_loader.dataset))
