import torch
import torch.nn.functional as F

from data import coco_loader
from model import Detector

model = Detector().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
logs = {"cls": [], "box": [], "total": []}

for epoch in range(12):
    for images, gt_labels, gt_boxes in coco_loader:
        optimizer.zero_grad()
        cls_out, box_out = model(images.cuda())
        cls_loss = F.cross_entropy(cls_out, gt_labels.cuda())
        box_loss = F.l1_loss(box_out, gt_boxes.cuda())
        loss = cls_loss + box_loss
        loss.backward()
        optimizer.step()
        logs["cls"].append(cls_loss)  # expect: GPU101
        logs["box"].append(box_loss.item())
        logs["total"].append(loss.item())
