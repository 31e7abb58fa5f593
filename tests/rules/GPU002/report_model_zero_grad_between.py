import torch
import torch.nn.functional as F

from data import train_loader
from model import LeNet

model = LeNet().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(15):
    model.train()
    for images, labels in train_loader:
        output = model(images.cuda())
        loss = F.nll_loss(output, labels.cuda())
        loss.backward()
        model.zero_grad()  # expect: GPU002
        optimizer.step()
