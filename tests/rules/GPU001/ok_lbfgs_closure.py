import torch
import torch.nn as nn

from data import full_batch
from model import SmallNet

model = SmallNet().cuda()
optimizer = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=20, history_size=10)
criterion = nn.MSELoss()
x, y = full_batch()
x, y = x.cuda(), y.cuda()

for it in range(50):
    def closure():
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        return loss

    loss = optimizer.step(closure)
    print(f"iter {it}: {loss.item():.6f}")
