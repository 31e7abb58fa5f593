# The KL weight returned next to the loss tensors is a Python float: keeping it per step keeps no graph.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from losses import vae_loss
from model import VAE

loader = DataLoader(datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor()),
                    batch_size=128, shuffle=True)
model = VAE().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
betas = []
global_step = 0

for epoch in range(20):
    model.train()
    epoch_loss = 0.0
    for x, _ in loader:
        x = x.cuda()
        recon, mu, logvar = model(x)
        rec, kld, beta = vae_loss(recon, x, mu, logvar, global_step)
        loss = rec + beta * kld
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        betas.append(beta)
        epoch_loss += loss.item()
        global_step += 1
    print(f"epoch {epoch} loss {epoch_loss / len(loader):.2f} beta {betas[-1]:.3f}")
