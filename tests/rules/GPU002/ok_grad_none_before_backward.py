import torch

from data import loader
from model import NeRF, render_rays

model = NeRF().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)

for it, (rays, target_rgb) in enumerate(loader):
    for param in model.parameters():
        param.grad = None
    rgb = render_rays(model, rays.cuda())
    loss = torch.mean((rgb - target_rgb.cuda()) ** 2)
    loss.backward()
    optimizer.step()
    if it % 1000 == 0:
        psnr = -10.0 * torch.log10(loss.detach())
        print(it, psnr.item())
