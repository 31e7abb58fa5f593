# Detection criterion: returns one graph-carrying tensor per loss term.
import torch
import torch.nn.functional as F
from torchvision.ops import generalized_box_iou_loss


def detection_losses(outputs, targets):
    cls = F.cross_entropy(outputs["logits"].flatten(0, 1), targets["labels"].flatten())
    valid = targets["labels"] > 0
    box = F.l1_loss(outputs["boxes"][valid], targets["boxes"][valid])
    giou = generalized_box_iou_loss(outputs["boxes"][valid], targets["boxes"][valid], reduction="mean")
    return {"cls": cls, "box": box, "giou": giou}


LOSS_WEIGHTS = {"cls": 1.0, "box": 5.0, "giou": 2.0}


def weighted_total(loss_dict):
    return sum(LOSS_WEIGHTS[k] * v for k, v in loss_dict.items())
