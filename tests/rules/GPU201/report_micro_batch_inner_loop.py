import torch
import torch.nn.functional as F

from data import loader
from model import BigModel

model = BigModel().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
micro = 4

for epoch in range(3):
    for x, y in loader:
        optimizer.zero_grad()
        for xs, ys in zip(x.chunk(micro), y.chunk(micro)):
            loss = F.cross_entropy(model(xs.cuda()), ys.cuda()) / micro
            loss.backward()
            torch.cuda.empty_cache()  # expect: GPU201
        optimizer.step()
