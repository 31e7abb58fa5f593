import torch
import torch.nn.functional as F

from data import loader
from model import MLP

model = MLP(in_features=128, hidden=512, out_features=16).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step, (x, y) in enumerate(loader):
    pred = model(x.cuda())
    loss = F.mse_loss(pred, y.cuda())
    loss.backward()
    for p in model.parameters():
        p.grad = None  # expect: GPU002
    optimizer.step()
    if step % 200 == 0:
        print(step, loss.item())
