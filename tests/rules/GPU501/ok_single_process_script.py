"""One process, one GPU: the checkpoint goes back where it was saved."""
import torch

from model import Net

model = Net().cuda()
model.load_state_dict(torch.load("best.pt"))
model.eval()
