# A script that never trains loads a whole pickled model and runs it over images with grad on.
import torch
from torchvision.utils import save_image

from data import image_loader

generator = torch.load("generator_final.pth", map_location="cuda")
for images, _ in image_loader:
    restored = generator(images.cuda())  # expect: GPU103
    save_image(restored, "restored.png")
