import torch
import torch.nn.functional as F

from data import loader
from model import MultiHeadNet

model = MultiHeadNet(num_heads=3).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
weights = [1.0, 0.5, 0.25]

for epoch in range(10):
    for x, y in loader:
        optimizer.zero_grad()
        head_outputs = model(x.cuda())
        parts = []
        for w, out in zip(weights, head_outputs):
            parts.append(w * F.cross_entropy(out, y.cuda()))
        loss = sum(parts)
        loss.backward()
        optimizer.step()
