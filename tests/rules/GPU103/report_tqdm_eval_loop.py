import torch
from tqdm import tqdm

from data import val_loader
from model import build_segmenter
from metrics import IoUMeter

model = build_segmenter("deeplabv3_resnet50", num_classes=21).cuda()
model.load_state_dict(torch.load("seg.pt", map_location="cuda"))
model.eval()
iou = IoUMeter(num_classes=21)

for images, masks in tqdm(val_loader, desc="val"):
    logits = model(images.cuda())["out"]  # expect: GPU103
    iou.add(logits.argmax(1).cpu(), masks)
print("mIoU", iou.value())
