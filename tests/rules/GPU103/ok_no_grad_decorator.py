import torch
import torch.nn as nn

from data import val_loader
from model import ResNet18

criterion = nn.CrossEntropyLoss()


@torch.no_grad()
def validate(model, loader):
    model.eval()
    loss_sum, correct = 0.0, 0
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        logits = model(images)
        loss_sum += criterion(logits, labels).item() * images.size(0)
        correct += (logits.argmax(1) == labels).sum().item()
    return loss_sum / len(loader.dataset), correct / len(loader.dataset)


model = ResNet18(num_classes=10).cuda()
print(validate(model, val_loader))
