# ImageNet-style epoch: the loss goes into an AverageMeter from utils/meters.py.
import torch
import torch.nn as nn
import torchvision

from utils.meters import AverageMeter


def train_epoch(model, loader, criterion, optimizer, epoch):
    losses = AverageMeter("loss")
    top1 = AverageMeter("acc@1")
    model.train()
    for i, (images, target) in enumerate(loader):
        images, target = images.cuda(non_blocking=True), target.cuda(non_blocking=True)
        output = model(images)
        loss = criterion(output, target)
        acc1 = (output.argmax(1) == target).float().mean().item() * 100
        losses.update(loss, images.size(0))  # expect: GPU101
        top1.update(acc1, images.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % 100 == 0:
            print(f"epoch {epoch} [{i}/{len(loader)}] {losses} {top1}")


def main(loader, epochs=90):
    model = torchvision.models.resnet50().cuda()
    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    for epoch in range(epochs):
        train_epoch(model, loader, criterion, optimizer, epoch)
