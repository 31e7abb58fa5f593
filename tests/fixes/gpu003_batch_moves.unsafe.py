import torch
import torch.nn.functional as F


class Normalizer:
    def __init__(self, dim):
        self.scale = torch.ones(dim)

    def to(self, device):
        self.scale.to(device)
        return self


def train(model, optimizer, loader, device):
    for step, (images, labels) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        labels = labels.cuda(); labels = labels.long()
        if step == 0: images = images.half()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()
