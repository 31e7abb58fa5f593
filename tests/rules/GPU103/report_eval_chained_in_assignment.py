import torch

from data import test_loader
from model import UNet

model = UNet(n_channels=3, n_classes=2).to("cuda").eval()
model.load_state_dict(torch.load("unet.pt", map_location="cuda"))

dice_total = 0.0
for image, mask in test_loader:
    pred = model(image.cuda()).argmax(1)  # expect: GPU103
    inter = ((pred == 1) & (mask.cuda() == 1)).sum().item()
    union = (pred == 1).sum().item() + (mask == 1).sum().item()
    dice_total += 2 * inter / max(union, 1)
print("dice", dice_total / len(test_loader))
