"""Old code wraps the draw in Variable before the move; a diffusion
trainer's helper returns a host draw that its caller moves each step."""
import torch
from torch.autograd import Variable


class Diffusion:
    def __init__(self, steps):
        self.steps = steps

    def sample_timesteps(self, n):
        return torch.randint(low=1, high=self.steps, size=(n,))

    def train(self, model, loader, optimizer, device):
        for images, _ in loader:
            images = images.to(device)
            t = self.sample_timesteps(images.shape[0]).to(device)  # expect: GPU302
            loss = model(images, t).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_gan(netG, netD, loader, optimizer, batch, nz):
    for real, _ in loader:
        z = Variable(torch.randn(batch, nz)).cuda()  # expect: GPU302
        loss = netD(netG(z)).mean() - netD(real.cuda()).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
