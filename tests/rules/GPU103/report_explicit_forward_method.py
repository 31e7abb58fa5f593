import torch

from data import test_loader
from model import Net

model = Net().cuda()
model.eval()

errors = 0
for x, y in test_loader:
    logits = model.forward(x.cuda())  # expect: GPU103
    errors += (logits.argmax(1) != y.cuda()).sum().item()
print("error rate", errors / len(test_loader.dataset))
