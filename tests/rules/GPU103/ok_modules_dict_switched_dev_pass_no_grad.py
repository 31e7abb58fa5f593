# The networks of a dict switched with one loop; the dev pass runs under no_grad.
import torch
from torch import nn


class Trainer:
    def __init__(self, generator, discriminator, dev_loader):
        self.nets = {"generator": generator, "discriminator": discriminator}
        self.dev_loader = dev_loader
        self.dev_total = 0.0

    @torch.no_grad()
    def dev_step(self, noise, real):
        fake = self.nets["generator"](noise)
        self.dev_total += self.nets["discriminator"](fake).mean().item()

    def dev_epoch(self):
        for name in self.nets.keys():
            self.nets[name].eval()
        for noise, real in self.dev_loader:
            self.dev_step(noise, real)
        for net in self.nets.values():
            net.train()
