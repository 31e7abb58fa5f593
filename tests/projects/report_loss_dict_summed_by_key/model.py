# Tiny set-prediction detector: a backbone and two heads over a fixed number of queries.
import torch
import torch.nn as nn
import torchvision


class Detector(nn.Module):
    def __init__(self, n_classes=21, n_queries=50):
        super().__init__()
        backbone = torchvision.models.resnet18(weights="IMAGENET1K_V1")
        self.backbone = nn.Sequential(*list(backbone.children())[:-1])
        self.n_queries = n_queries
        self.n_classes = n_classes
        self.cls_head = nn.Linear(512, n_queries * n_classes)
        self.box_head = nn.Linear(512, n_queries * 4)

    def forward(self, images):
        feat = self.backbone(images).flatten(1)
        logits = self.cls_head(feat).view(-1, self.n_queries, self.n_classes)
        boxes = self.box_head(feat).view(-1, self.n_queries, 4).sigmoid()
        # (cx, cy, w, h) -> (x0, y0, x1, y1)
        boxes = torch.cat([boxes[..., :2] - boxes[..., 2:] / 2, boxes[..., :2] + boxes[..., 2:] / 2], dim=-1)
        return {"logits": logits, "boxes": boxes}
