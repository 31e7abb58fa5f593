import torch
import torch.nn.functional as F

from unet import UNet
from schedule import alphas_cumprod

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = UNet(channels=3).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
abar = alphas_cumprod(1000).to(device)


def train(loader, epochs):
    for epoch in range(epochs):
        for x0, _ in loader:
            x0 = x0.to(device)
            t = torch.randint(0, 1000, (x0.shape[0],)).to(device)  # expect: GPU302
            noise = torch.randn(x0.shape).to(device)  # expect: GPU302
            a = abar[t].view(-1, 1, 1, 1)
            xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
            loss = F.mse_loss(model(xt, t), noise)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
