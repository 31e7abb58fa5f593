import torch
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter

from data import loader
from model import Net

writer = SummaryWriter("runs/exp1")
model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
global_step = 0

for epoch in range(10):
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        writer.add_scalar("train/loss", loss, global_step)
        if global_step % 100 == 0:
            print(global_step, loss)
        global_step += 1
writer.close()
