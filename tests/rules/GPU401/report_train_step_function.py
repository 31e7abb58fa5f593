import torch
import torch.nn.functional as F

from model import ResNet

model = ResNet().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scaler = torch.cuda.amp.GradScaler()


def train_step(images, labels):
    optimizer.zero_grad()
    with torch.cuda.amp.autocast():
        loss = F.cross_entropy(model(images), labels)
    scaler.scale(loss).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=2.0)  # expect: GPU401
    scaler.step(optimizer)
    scaler.update()
    return loss.item()


def main(loader):
    for images, labels in loader:
        train_step(images.cuda(), labels.cuda())
