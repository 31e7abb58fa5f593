import torch
import torchvision

from data import image_loader

backbone = torchvision.models.resnet50(weights="IMAGENET1K_V2")
backbone.fc = torch.nn.Identity()
backbone = backbone.cuda()
backbone.eval()

features = []
for images, _ in image_loader:
    feats = backbone(images.cuda())  # expect: GPU103
    features.append(feats.cpu())  # expect: GPU101

torch.save(torch.cat(features), "features.pt")
