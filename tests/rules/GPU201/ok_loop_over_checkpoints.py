import glob

import torch

from data import test_loader
from model import Net


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    return sum((model(x.cuda()).argmax(1) == y.cuda()).sum().item() for x, y in loader) / len(loader.dataset)


for path in sorted(glob.glob("checkpoints/*.pt")):
    model = Net().cuda()
    model.load_state_dict(torch.load(path, map_location="cuda"))
    print(path, evaluate(model, test_loader))
    del model
    torch.cuda.empty_cache()
