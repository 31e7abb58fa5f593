import torch

from data import test_loader
from model import Net


@torch.inference_mode()
def predict(model, loader):
    model.eval()
    scores = []
    for x, _ in loader:
        scores.append(model(x.cuda()).softmax(dim=-1))
    return torch.cat(scores)


model = Net().cuda()
model.load_state_dict(torch.load("net.pt", map_location="cuda"))
probs = predict(model, test_loader)
print(probs.shape)
