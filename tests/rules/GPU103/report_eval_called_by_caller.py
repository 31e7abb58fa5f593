import torch
import torch.nn.functional as F

from data import val_loader
from model import Net


def run_eval(model, loader):
    losses = 0.0
    for x, y in loader:
        logits = model(x.cuda())  # expect: GPU103
        losses += F.cross_entropy(logits, y.cuda()).item()
    return losses / len(loader)


model = Net().cuda()
model.load_state_dict(torch.load("net.pt", map_location="cuda"))
model.eval()
print(run_eval(model, val_loader))
