import torch
import torch.nn as nn

from data import val_loader
from model import Net

model = Net().cuda()
model.load_state_dict(torch.load("net.pt", map_location="cuda"))
criterion = nn.CrossEntropyLoss()

model.eval()
outputs = []
val_loss = 0.0
with torch.no_grad():
    for x, y in val_loader:
        out = model(x.cuda())
        val_loss += criterion(out, y.cuda())
        outputs.append(out)

print(val_loss.item() / len(val_loader), torch.cat(outputs).shape)
