# A global tensor type (`Tensor = torch.cuda.FloatTensor`) builds the training targets and the noise of a
# monitoring loop: calling it is no forward, whatever backward its targets reach.
import numpy as np
import torch
from torch import nn

from data import loader
from models import Discriminator, Generator

Tensor = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
generator, discriminator = Generator().cuda(), Discriminator().cuda()
optimizer = torch.optim.Adam(generator.parameters())


def noise_norms(count):
    for _ in range(count):
        z = Tensor(np.random.normal(0, 1, (4, 8)))
        print(z.norm().item())


for images in loader:
    valid = Tensor(images.size(0), 1).fill_(1.0)
    z = Tensor(np.random.normal(0, 1, (images.size(0), 8)))
    loss = nn.functional.binary_cross_entropy(discriminator(generator(z)), valid)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    noise_norms(2)
