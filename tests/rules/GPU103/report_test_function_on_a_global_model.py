# A script trains its module-level model in train() and scores it in test(), a loop with grad on.
import torch
from torch import nn

from data import test_loader, train_loader

model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10)).cuda()
optimizer = torch.optim.Adam(model.parameters())


def train():
    for x, y in train_loader:
        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def test():
    correct = 0
    for x, y in test_loader:
        out = model(x.cuda())  # expect: GPU103
        correct += (out.argmax(1) == y.cuda()).sum().item()
    return correct


for epoch in range(10):
    train()
    print(test())
