import torch
import torch.nn.functional as F
from torchvision.models import VGG19_Weights, vgg19

from utils import gram_matrix, load_image

vgg = vgg19(weights=VGG19_Weights.DEFAULT).features[:21].cuda()
vgg.eval()
for p in vgg.parameters():
    p.requires_grad_(False)

content = load_image("content.jpg").cuda()
style = load_image("style.jpg").cuda()
with torch.no_grad():
    content_target = vgg(content)
    style_target = gram_matrix(vgg(style))

image = content.clone().requires_grad_(True)
optimizer = torch.optim.Adam([image], lr=0.02)
for step in range(500):
    optimizer.zero_grad()
    features = vgg(image)
    loss = F.mse_loss(features, content_target) + 1e4 * F.mse_loss(gram_matrix(features), style_target)
    loss.backward()
    optimizer.step()
