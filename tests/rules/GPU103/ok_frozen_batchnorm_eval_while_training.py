import torch
import torch.nn.functional as F

from data import small_batch_loader
from model import build_detector

model = build_detector(pretrained_backbone=True).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for epoch in range(12):
    model.eval()
    for images, targets in small_batch_loader:
        optimizer.zero_grad()
        outputs = model(images.cuda())
        loss = F.smooth_l1_loss(outputs, targets.cuda())
        loss.backward()
        optimizer.step()
