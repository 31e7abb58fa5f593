import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
predictions = []

for epoch in range(5):
    correct = 0
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        optimizer.zero_grad()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        optimizer.step()
        correct += int((logits.argmax(dim=1) == y).sum())
        predictions.extend(logits.argmax(dim=1).tolist())
    print(epoch, correct / len(loader.dataset))
