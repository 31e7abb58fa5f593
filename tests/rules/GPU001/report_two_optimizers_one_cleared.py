import torch
import torch.nn as nn

from data import loader
from model import Backbone, Head

backbone = Backbone().cuda()
head = Head(num_classes=100).cuda()
opt_backbone = torch.optim.SGD(backbone.parameters(), lr=1e-3, momentum=0.9)
opt_head = torch.optim.Adam(head.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()

for epoch in range(20):
    for x, y in loader:
        opt_head.zero_grad()
        feats = backbone(x.cuda())
        loss = criterion(head(feats), y.cuda())
        loss.backward()  # expect: GPU001
        opt_head.step()
        opt_backbone.step()
