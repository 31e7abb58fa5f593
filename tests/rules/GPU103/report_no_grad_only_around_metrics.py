import torch

from data import val_loader
from model import Net

model = Net().cuda()
model.eval()
correct = 0

for x, y in val_loader:
    out = model(x.cuda())  # expect: GPU103
    with torch.no_grad():
        correct += (out.argmax(1) == y.cuda()).sum().item()
print(correct / len(val_loader.dataset))
