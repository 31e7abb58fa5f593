# An AverageMeter imported from the project keeps the tensor it is given.
# The meter's module is not in the project, so only its name says it keeps the tensor:
# reported with --pedantic (tests/projects has the case with the module present).
import torch
from utils import AverageMeter


def train(model, loader, optimizer, criterion):
    losses = AverageMeter()
    for x, y in loader:
        out = model(x)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss, x.size(0))  # pedantic: GPU101
    return losses.avg
