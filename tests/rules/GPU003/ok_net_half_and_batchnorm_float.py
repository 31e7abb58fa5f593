import torch
import torch.nn as nn

from networks import UNet

net = UNet(n_channels=3, n_classes=2)
net.load_state_dict(torch.load("unet.pth", map_location="cpu"))
net.cuda()
net.half()
for layer in net.modules():
    if isinstance(layer, nn.BatchNorm2d):
        layer.float()
net.eval()

with torch.no_grad():
    for image, _ in val_loader:
        mask = net(image.cuda().half()).argmax(1)
