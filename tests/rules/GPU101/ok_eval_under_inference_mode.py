import torch

from data import test_loader
from model import Segmenter

model = Segmenter().cuda()
model.eval()
masks = []

with torch.inference_mode():
    for images in test_loader:
        logits = model(images.cuda())
        masks.append(logits.argmax(1))

torch.save(torch.cat(masks).cpu(), "masks.pt")
