import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler as Scaler

from data import loader
from model import Net

net = Net().cuda()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
loss_scaler = Scaler(init_scale=2.0**16)

for xb, yb in loader:
    opt.zero_grad()
    with torch.autocast("cuda"):
        out = net(xb)
        loss = nn.functional.nll_loss(out, yb)
    loss_scaler.scale(loss).backward()
    nn.utils.clip_grad.clip_grad_norm_(net.parameters(), 0.25)  # expect: GPU401
    loss_scaler.step(opt)
    loss_scaler.update()
