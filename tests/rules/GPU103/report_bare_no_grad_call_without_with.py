import torch

from data import test_loader
from model import Net

model = Net().cuda()
model.load_state_dict(torch.load("net.pt", map_location="cuda"))
model.eval()
torch.no_grad()

predictions = []
for x, _ in test_loader:
    logits = model(x.cuda())  # expect: GPU103
    predictions.extend(logits.argmax(1).tolist())
print(len(predictions))
