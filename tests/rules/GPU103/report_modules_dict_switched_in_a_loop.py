# A trainer keeps its networks in a dict and switches them all with one loop; the dev pass runs them with grad on.
import torch
from torch import nn


class Trainer:
    def __init__(self, generator, discriminator, loader, dev_loader, optimizers):
        self.nets = {"generator": generator, "discriminator": discriminator}
        self.loader = loader
        self.dev_loader = dev_loader
        self.optimizers = optimizers
        self.dev_total = 0.0

    def train_step(self, noise, real):
        fake = self.nets["generator"](noise)
        loss = (self.nets["discriminator"](fake) - self.nets["discriminator"](real)).mean()
        for optimizer in self.optimizers.values():
            optimizer.zero_grad()
        loss.backward()
        for optimizer in self.optimizers.values():
            optimizer.step()

    def dev_step(self, noise, real):
        fake = self.nets["generator"](noise)  # expect: GPU103
        score = self.nets["discriminator"](fake)  # expect: GPU103
        self.dev_total += score.mean().item()

    def dev_epoch(self):
        for name in self.nets.keys():
            self.nets[name].eval()
        for noise, real in self.dev_loader:
            self.dev_step(noise, real)
        for name in self.nets:
            self.nets[name].train()

    def run(self):
        for noise, real in self.loader:
            self.train_step(noise, real)
        self.dev_epoch()
