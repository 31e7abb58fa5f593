import torch

from data import sample_images
from model import load_classifier

model = load_classifier().cuda()
model.eval()

saliency_maps = []
for image, label in sample_images:
    image = image.cuda().unsqueeze(0).requires_grad_(True)
    scores = model(image)
    scores[0, label].backward()
    saliency_maps.append(image.grad.abs().max(dim=1)[0].cpu())
torch.save(saliency_maps, "saliency.pt")
