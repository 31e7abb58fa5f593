import torch
import torch.nn.functional as F

from data import val_loader
from model import Net

model = Net().cuda()
model.eval()
total_loss = 0
all_logits = []

with torch.set_grad_enabled(False):
    for x, y in val_loader:
        logits = model(x.cuda())
        total_loss += F.cross_entropy(logits, y.cuda())
        all_logits.append(logits)

print(total_loss.item() / len(val_loader))
