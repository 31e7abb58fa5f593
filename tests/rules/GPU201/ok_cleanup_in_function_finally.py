import torch
import torch.nn.functional as F

from data import loader
from model import Net


def run_training(epochs):
    model = Net().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    try:
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                loss = F.cross_entropy(model(x.cuda()), y.cuda())
                loss.backward()
                optimizer.step()
        return model.state_dict()
    finally:
        del optimizer
        torch.cuda.empty_cache()


state = run_training(10)
