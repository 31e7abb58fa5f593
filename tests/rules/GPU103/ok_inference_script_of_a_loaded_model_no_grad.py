# The same inference script, under inference_mode.
import torch
from torchvision.utils import save_image

from data import image_loader

generator = torch.load("generator_final.pth", map_location="cuda")
with torch.inference_mode():
    for images, _ in image_loader:
        restored = generator(images.cuda())
        save_image(restored, "restored.png")
