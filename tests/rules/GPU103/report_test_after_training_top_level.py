import torch
import torch.nn as nn

from data import test_loader, train_loader
from model import LeNet5

model = LeNet5().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    model.train()
    for images, labels in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(images.cuda()), labels.cuda())
        loss.backward()
        optimizer.step()

model.eval()
correct = 0
for images, labels in test_loader:
    outputs = model(images.cuda())  # expect: GPU103
    correct += (outputs.argmax(1) == labels.cuda()).sum().item()
print(f"Test accuracy: {100 * correct / len(test_loader.dataset):.2f}%")
