import torch
import torch.nn.functional as F

from data import paired_loader
from model import TwoTowerModel

model = TwoTowerModel(dim=256).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)

for epoch in range(20):
    for query, doc, label in paired_loader:
        q, d = model(query.cuda(), doc.cuda())
        contrastive = F.cross_entropy(q @ d.t(), torch.arange(q.size(0), device="cuda"))
        contrastive.backward(retain_graph=True)
        optimizer.zero_grad()  # expect: GPU002
        cls = F.binary_cross_entropy_with_logits((q * d).sum(-1), label.float().cuda())
        cls.backward()
        optimizer.step()
