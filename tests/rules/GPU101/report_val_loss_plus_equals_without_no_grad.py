import torch
import torch.nn as nn

from data import val_loader
from model import Net

criterion = nn.CrossEntropyLoss()


def validate(model):
    model.eval()
    val_loss = 0.0
    for x, y in val_loader:
        out = model(x.cuda())  # expect: GPU103
        val_loss += criterion(out, y.cuda())  # expect: GPU101
    return val_loss / len(val_loader)


model = Net().cuda()
model.load_state_dict(torch.load("net.pt", map_location="cuda"))
print("val loss", validate(model).item())
