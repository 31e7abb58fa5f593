# Trains a segmenter; validation reuses forward_batch() in eval mode with
# grad on, so each validation batch records a graph.
import torch
import torchvision

from data import train_loader, val_loader
from steps import forward_batch

model = torchvision.models.segmentation.fcn_resnet50(num_classes=21).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def train_one_epoch():
    model.train()
    for batch in train_loader:
        loss, _ = forward_batch(model, batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate():
    model.eval()
    total, pixels = 0.0, 0
    for batch in val_loader:
        loss, logits = forward_batch(model, batch)  # expect: GPU103
        total += loss.item()
        pixels += (logits.argmax(1).cpu() == batch["mask"]).float().mean().item()
    return total / len(val_loader), pixels / len(val_loader)


for epoch in range(30):
    train_one_epoch()
    print(epoch, validate())
