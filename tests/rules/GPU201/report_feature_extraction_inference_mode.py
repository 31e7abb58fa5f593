import torch
import torchvision

from data import image_loader

backbone = torchvision.models.resnet50(weights="IMAGENET1K_V2")
backbone.fc = torch.nn.Identity()
backbone = backbone.cuda()
backbone.eval()

features = []
with torch.inference_mode():
    for images, _ in image_loader:
        features.append(backbone(images.cuda()).cpu())
        torch.cuda.empty_cache()  # expect: GPU201
torch.save(torch.cat(features), "features.pt")
