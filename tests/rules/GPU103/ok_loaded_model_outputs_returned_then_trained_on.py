# The same function's result feeds a backward at its call: the caller trains on what it returns.
import torch

from data import test_loader
from models import AutoEncoder, Refiner


def reconstruct():
    model = AutoEncoder().cuda()
    model.load_state_dict(torch.load("autoencoder.pt"))
    for x in test_loader:
        x = x.cuda()
        x_hat = model(x)
    return x, x_hat


refiner = Refiner().cuda()
optimizer = torch.optim.Adam(refiner.parameters())
x, x_hat = reconstruct()
loss = (refiner(x_hat) - x).pow(2).mean()
loss.backward()
optimizer.step()
