import torch

from data import test_loader
from model import Net


def collect_logits(model, loader):
    model.eval()
    logits = []
    for x, _ in loader:
        logits.append(model(x.cuda()))
    return torch.cat(logits)


model = Net().cuda()
model.load_state_dict(torch.load("best.pt", map_location="cuda"))
with torch.no_grad():
    test_logits = collect_logits(model, test_loader)
torch.save(test_logits.cpu(), "test_logits.pt")
