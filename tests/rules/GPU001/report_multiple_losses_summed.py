import torch
import torch.nn.functional as F

from detection import Detector, coco_loader

model = Detector(num_classes=80).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)

for epoch in range(12):
    for images, boxes, labels in coco_loader(split="train", batch_size=16):
        images = images.cuda()
        cls_logits, box_preds = model(images)
        cls_loss = F.cross_entropy(cls_logits, labels.cuda())
        box_loss = F.smooth_l1_loss(box_preds, boxes.cuda())
        loss = cls_loss + 2.0 * box_loss
        loss.backward()  # expect: GPU001
        optimizer.step()
