import torch
import torch.nn.functional as F

from data import make_loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
batch_size = 1024

while batch_size >= 8:
    try:
        for x, y in make_loader(batch_size):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x.cuda()), y.cuda())
            loss.backward()
            optimizer.step()
        break
    except torch.cuda.OutOfMemoryError:
        batch_size //= 2
        optimizer.zero_grad(set_to_none=True)
        torch.cuda.empty_cache()
print("trained with batch size", batch_size)
