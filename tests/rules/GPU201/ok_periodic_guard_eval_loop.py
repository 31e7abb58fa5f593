import torch

from data import test_loader
from model import Segmenter

model = Segmenter().cuda()
model.eval()
saved = 0

with torch.inference_mode():
    for i, (images, names) in enumerate(test_loader):
        masks = model(images.cuda()).argmax(1).cpu()
        for mask, name in zip(masks, names):
            torch.save(mask, f"out/{name}.pt")
            saved += 1
        if i % 50 == 0:
            torch.cuda.empty_cache()
print("saved", saved)
