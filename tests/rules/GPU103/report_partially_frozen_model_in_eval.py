# Only the backbone is frozen; the head still records a graph in evaluation.
import torch

from model import Classifier

model = Classifier().cuda()
model.backbone.requires_grad_(False)
model.eval()

correct = 0
for x, y in val_loader:
    logits = model(x.cuda())  # expect: GPU103
    correct += (logits.argmax(1) == y.cuda()).sum().item()
print(correct / len(val_loader.dataset))
