import torch
import torch.nn.functional as F

from data import loader
from model import Net


def train_one_epoch(model, optimizer, loader):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
    torch.cuda.empty_cache()


model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(20):
    train_one_epoch(model, optimizer, loader)
