# Feature extraction with every parameter frozen: no graph is recorded, nothing to report.
import torch
import torchvision

backbone = torchvision.models.resnet50(weights="IMAGENET1K_V2").cuda()
for p in backbone.parameters():
    p.requires_grad = False
backbone.eval()

features = []
for images, _ in image_loader:
    features.append(backbone(images.cuda()).cpu())
torch.save(torch.cat(features), "features.pt")
