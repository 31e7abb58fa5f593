import torch
import torch.nn.functional as F

from data import loader
from model import ResNet18

model = ResNet18(num_classes=10).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=40 * len(loader))

for epoch in range(40):
    model.train()
    for images, labels in loader:
        loss = F.cross_entropy(model(images.cuda()), labels.cuda())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        scheduler.step()
