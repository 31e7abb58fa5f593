# A confusion-matrix metric: update() takes the logits but keeps only integer counts built from their argmax.
import torch


class Metrics:
    def __init__(self, num_classes, ignore_label=255):
        self.num_classes = num_classes
        self.ignore_label = ignore_label
        self.hist = torch.zeros(num_classes, num_classes)

    def update(self, pred, target):
        pred = pred.argmax(dim=1)
        keep = target != self.ignore_label
        self.hist += torch.bincount(target[keep] * self.num_classes + pred[keep],
                                    minlength=self.num_classes ** 2).view(self.num_classes, self.num_classes)

    def miou(self):
        ious = self.hist.diag() / (self.hist.sum(0) + self.hist.sum(1) - self.hist.diag())
        return ious[~ious.isnan()].mean().item()
