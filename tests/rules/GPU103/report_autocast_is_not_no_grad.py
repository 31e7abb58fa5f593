import torch

from data import val_loader
from model import ViT

model = ViT(num_classes=1000).cuda()
model.load_state_dict(torch.load("vit.pt", map_location="cuda"))
model.eval()

top1 = 0
for images, labels in val_loader:
    with torch.autocast("cuda", dtype=torch.bfloat16):
        logits = model(images.cuda(non_blocking=True))  # expect: GPU103
    top1 += (logits.argmax(-1) == labels.cuda()).sum().item()
print("top-1:", top1 / len(val_loader.dataset))
