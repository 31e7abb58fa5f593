import torch

from data import test_loader
from model import Net

model = Net().cuda()
model.load_state_dict(torch.load("net.pt", map_location="cuda"))
model.train(False)

correct = 0
for x, y in test_loader:
    pred = model(x.cuda()).argmax(1)  # expect: GPU103
    correct += (pred == y.cuda()).sum().item()
print(correct / len(test_loader.dataset))
