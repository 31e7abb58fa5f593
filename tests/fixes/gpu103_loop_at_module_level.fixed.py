import torch
import torchvision

model = torchvision.models.resnet18()
model.eval()
top1 = 0
with torch.no_grad():
    for images, labels in val_loader:
        logits = model(images)
        top1 += (logits.argmax(-1) == labels).sum().item()
print(top1)
