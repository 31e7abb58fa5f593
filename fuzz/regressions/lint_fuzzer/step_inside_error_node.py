import torch
import torch.nn as nn

from data import train_loader
from model import build_model

accumulation_steps = 8
model = build_model("resnet50").cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(90):
    for i, (images, targets) in enumerate(train_loader):
        loss = criterion(model(images.cuda()), targets.cuda()) / accumulation_steps
        loss.backward(f"{)
        if (i + 1) % accumulation_steps == 0:
            optimizer.zero_grad()  # expect: GPU002
            optimizer.step()
