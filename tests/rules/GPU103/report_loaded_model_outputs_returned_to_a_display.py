# An inference function loads the autoencoder, reconstructs the test set with grad on and returns the
# last batch, which its one caller only plots: nothing backpropagates what it returns.
import torch

from data import test_loader
from models import AutoEncoder
from plots import show_pairs


def reconstruct():
    model = AutoEncoder().cuda()
    model.load_state_dict(torch.load("autoencoder.pt"))
    for x in test_loader:
        x = x.cuda()
        x_hat = model(x)  # expect: GPU103
    return x, x_hat


x, x_hat = reconstruct()
show_pairs(x.cpu(), x_hat.detach().cpu())
