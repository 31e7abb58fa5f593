import torch
import torch.nn.functional as F


def move(t, device):
    return t.to(device)


def train(model, optimizer, loader, device):
    for x, y in loader:
        x = x.to(device)
        y, w = y.to(device), torch.ones(len(y)).to(device)
        optimizer.zero_grad()
        loss = (F.cross_entropy(model(x), y, reduction="none") * w).mean()
        print(x.to("cpu").shape, move(y, "cpu").dtype)
        loss.backward()
        optimizer.step()
    extra = [t.cuda() for t in torch.randn(4, 3)]
    return extra
