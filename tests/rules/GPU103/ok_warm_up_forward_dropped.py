# A warm-up forward whose result is dropped, once per evaluation run (the runs repeat over weight files): one
# peak per call, reported only with --pedantic; the evaluation loop itself runs under no_grad.
import torch
import torch.nn as nn


def test(model: nn.Module, loader, imgsz=640):
    model.eval()
    model(torch.zeros(1, 3, imgsz, imgsz))  # pedantic: GPU103
    correct = 0
    with torch.no_grad():
        for images, labels in loader:
            correct += (model(images).argmax(1) == labels).sum().item()
    return correct


for weights in ["a.pt", "b.pt"]:
    net = torch.load(weights, map_location="cpu", weights_only=False)
    print(test(net, loader))
