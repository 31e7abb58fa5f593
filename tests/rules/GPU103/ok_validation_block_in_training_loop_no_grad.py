import torch
import torch.nn.functional as F

from data import train_loader, val_batch
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step, (x, y) in enumerate(train_loader):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        model.eval()
        with torch.no_grad():
            vx, vy = val_batch()
            val_loss = F.cross_entropy(model(vx.cuda()), vy.cuda()).item()
        print(f"step {step}: train {loss.item():.3f} val {val_loss:.3f}")
        model.train()
