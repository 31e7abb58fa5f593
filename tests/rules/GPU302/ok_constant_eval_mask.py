import torch

from model import Segmenter
from data import val_loader


@torch.no_grad()
def evaluate(model, device):
    model.eval()
    correct = total = 0
    for images, targets in val_loader:
        images, targets = images.to(device), targets.to(device)
        mask = torch.ones(images.shape[0], images.shape[2], images.shape[3]).to(device)
        logits = model(images)
        pred = logits.argmax(1)
        correct += ((pred == targets) * mask).sum()
        total += mask.sum()
    return correct / total


if __name__ == "__main__":
    net = Segmenter().cuda()
    print(evaluate(net, "cuda"))
