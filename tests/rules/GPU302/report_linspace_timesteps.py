import torch
import torch.nn.functional as F

from unet import UNet
from data import image_loader

model = UNet().to("cuda")
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
betas = torch.linspace(1e-4, 0.02, 1000, device="cuda")


def training_step(images):
    images = images.to("cuda")
    t = torch.randint(0, 1000, (images.size(0),)).to("cuda")  # expect: GPU302
    noise = torch.randn_like(images)
    alpha = (1 - betas).cumprod(0)[t].view(-1, 1, 1, 1)
    noisy = alpha.sqrt() * images + (1 - alpha).sqrt() * noise
    return F.mse_loss(model(noisy, t), noise)


for epoch in range(500):
    for images, _ in image_loader:
        loss = training_step(images)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
