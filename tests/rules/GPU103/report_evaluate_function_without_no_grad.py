import torch
import torch.nn.functional as F

from data import test_loader
from model import Net


def evaluate(model, loader):
    model.eval()
    correct, total_loss = 0, 0.0
    for data, target in loader:
        data, target = data.cuda(), target.cuda()
        output = model(data)  # expect: GPU103
        total_loss += F.nll_loss(output, target, reduction="sum").item()
        correct += output.argmax(dim=1).eq(target).sum().item()
    n = len(loader.dataset)
    return total_loss / n, correct / n


model = Net().cuda()
model.load_state_dict(torch.load("mnist_cnn.pt", map_location="cuda"))
print(evaluate(model, test_loader))
