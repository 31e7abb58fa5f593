import torch

from data import test_loader
from model import Net


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x.cuda()).argmax(1) == y.cuda()).sum().item()
        torch.cuda.empty_cache()  # expect: GPU201
    return correct / len(loader.dataset)


model = Net().cuda()
print(evaluate(model, test_loader))
