import torch

from model import Detector
from data import loader

model = Detector().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for images, boxes in loader:
    images = images.cuda()
    anchors = torch.Tensor([[0.5, 0.5, 1.0, 1.0], [0.5, 0.5, 2.0, 2.0]]).cuda()
    loss = model.loss(model(images), boxes.cuda(), anchors)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
