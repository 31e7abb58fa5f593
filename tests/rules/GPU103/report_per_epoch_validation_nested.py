import torch
import torch.nn as nn

from data import train_loader, val_loader
from model import ResNet18

model = ResNet18(num_classes=100).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)

for epoch in range(200):
    model.train()
    for images, labels in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(images.cuda()), labels.cuda())
        loss.backward()
        optimizer.step()

    model.eval()
    correct = 0
    for images, labels in val_loader:
        preds = model(images.cuda()).argmax(dim=1)  # expect: GPU103
        correct += (preds == labels.cuda()).sum().item()
    print(f"epoch {epoch}: val acc {correct / len(val_loader.dataset):.4f}")
