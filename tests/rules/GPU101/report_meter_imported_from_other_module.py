import torch
# The meter's module is not in the project, so only its name says it keeps the tensor:
# reported with --pedantic (tests/projects has the case with the module present).
import torch.nn as nn

from utils.meters import AverageMeter


def train_one_epoch(model, loader, optimizer, criterion=nn.CrossEntropyLoss()):
    model.train()
    loss_meter = AverageMeter("loss")
    for images, targets in loader:
        images, targets = images.cuda(), targets.cuda()
        optimizer.zero_grad()
        loss = criterion(model(images), targets)
        loss.backward()
        optimizer.step()
        loss_meter.update(loss, images.size(0))  # pedantic: GPU101
    return loss_meter.avg
