import torch
import torch.nn.functional as F

from data import batch_stream
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
stream = batch_stream(batch_size=128)

step = 0
while step < 100_000:
    x, y = next(stream)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    torch.cuda.empty_cache()  # expect: GPU201
    step += 1
