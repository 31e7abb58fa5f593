import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, models, transforms

train_set = datasets.CIFAR10("data", train=True, download=True, transform=transforms.ToTensor())
loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4)
model = models.resnet18(num_classes=10).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(30):
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        torch.cuda.empty_cache()  # expect: GPU201
