import torch
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
        loss_meter.update(loss, images.size(0))  # expect: GPU101
    return loss_meter.avg
