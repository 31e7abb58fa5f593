# Point-cloud completion runner: each training step hands the coarse and fine losses, graphs and all, to a running
# average that sums them for the whole epoch.
import torch.nn.functional as F

from runners.stats import MultiAverage


class CompletionRunner:
    def __init__(self, network, optimizer):
        self.network = network
        self.optimizer = optimizer
        self.losses = MultiAverage(["coarse", "fine"])

    def losses_of(self, batch):
        coarse, fine = self.network(batch["partial"])
        coarse_loss = F.mse_loss(coarse, batch["complete"])
        fine_loss = F.mse_loss(fine, batch["complete"])
        return coarse_loss + fine_loss, coarse_loss, fine_loss

    def train_step(self, batch):
        loss, coarse_loss, fine_loss = self.losses_of(batch)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.losses.update([coarse_loss * 1000, fine_loss * 1000])  # expect: GPU101

    def train_epoch(self, loader):
        self.losses.reset()
        for batch in loader:
            self.train_step(batch)
        return self.losses.averages()
