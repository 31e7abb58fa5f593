import torch
import torch.nn.functional as F

from data import test_loader
from model import load_classifier

model = load_classifier("resnet18.pt").cuda()
model.eval()
epsilon = 8 / 255
adv_correct = 0

for images, labels in test_loader:
    images = images.cuda().requires_grad_(True)
    labels = labels.cuda()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    adv = (images + epsilon * images.grad.sign()).clamp(0, 1).detach()
    with torch.no_grad():
        adv_correct += (model(adv).argmax(1) == labels).sum().item()

print("robust accuracy:", adv_correct / len(test_loader.dataset))
