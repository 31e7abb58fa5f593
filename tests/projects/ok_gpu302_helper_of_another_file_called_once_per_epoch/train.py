import torch
import torch.nn.functional as F
from torch import nn

from augment.order import epoch_order


def main(features, targets, epochs=5, batch=128):
    device = torch.device("cuda")
    features, targets = features.to(device), targets.to(device)
    model = nn.Linear(features.size(1), 10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(epochs):
        order = epoch_order(features.size(0), device)
        for start in range(0, features.size(0), batch):
            rows = order[start:start + batch]
            loss = F.cross_entropy(model(features[rows]), targets[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
