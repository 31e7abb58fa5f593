import torch
import torch.nn.functional as F

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
peaks = []

for step, (x, y) in enumerate(loader):
    torch.cuda.reset_peak_memory_stats()
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    torch.cuda.synchronize()
    peaks.append(torch.cuda.max_memory_allocated() / 2**20)
print("max peak MiB", max(peaks))
