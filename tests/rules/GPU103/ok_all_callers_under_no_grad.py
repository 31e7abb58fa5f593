import torch

from data import test_loader, val_loader
from model import Net


def score(model, loader):
    model.eval()
    hits = 0
    for x, y in loader:
        out = model(x.cuda())
        hits += (out.argmax(1) == y.cuda()).sum().item()
    return hits / len(loader.dataset)


model = Net().cuda()
model.load_state_dict(torch.load("net.pt", map_location="cuda"))
with torch.no_grad():
    val_acc = score(model, val_loader)
with torch.inference_mode():
    test_acc = score(model, test_loader)
print(val_acc, test_acc)
