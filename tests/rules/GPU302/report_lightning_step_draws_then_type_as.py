"""A Lightning module whose training_step runs a shared step method: the
time of each sample is drawn on the host, then converted with
`type_as(x)`, which copies it to x's GPU every batch; a subclass's step
does the same."""
import torch
from pytorch_lightning import LightningModule


class FlowMatching(LightningModule):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def step(self, batch):
        x1 = batch[0]
        x0 = torch.randn_like(x1)
        t = torch.rand(x1.shape[0]).type_as(x1)  # expect: GPU302
        xt = t[:, None] * x1 + (1 - t[:, None]) * x0
        return torch.mean((self.net(xt, t) - (x1 - x0)) ** 2)

    def training_step(self, batch, batch_idx):
        loss = self.step(batch)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        self.log("val/loss", self.step(batch))


class NoisyFlowMatching(FlowMatching):
    def step(self, batch):
        x1 = batch[0]
        t = torch.rand(x1.shape[0], 1).type_as(x1)  # expect: GPU302
        x0 = torch.randn_like(x1)
        return torch.mean((self.net(t * x1 + (1 - t) * x0, t) - (x1 - x0)) ** 2)
