"""nn.DataParallel runs one process: a load without map_location is fine."""
import torch
from torch import nn

from model import Net

model = nn.DataParallel(Net()).cuda()
model.load_state_dict(torch.load("checkpoint.pth"))
