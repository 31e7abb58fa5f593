import torch
import torch.nn as nn


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.val, self.sum, self.count, self.avg = 0, 0, 0, 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def train(model, loader, optimizer, criterion=nn.CrossEntropyLoss()):
    losses = AverageMeter()
    model.train()
    for images, target in loader:
        images, target = images.cuda(), target.cuda()
        output = model(images)
        loss = criterion(output, target)
        losses.update(loss, images.size(0))  # expect: GPU101
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return losses.avg
