from torch import load, no_grad

from data import val_loader
from model import Net

model = Net().cuda()
model.load_state_dict(load("net.pt", map_location="cuda"))
model.eval()

correct = 0
with no_grad():
    for x, y in val_loader:
        correct += (model(x.cuda()).argmax(1) == y.cuda()).sum().item()
print(correct / len(val_loader.dataset))
