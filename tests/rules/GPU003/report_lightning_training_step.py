import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn


class LitRegressor(pl.LightningModule):
    def __init__(self, in_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        x.float()  # expect: GPU003
        y.float()  # expect: GPU003
        loss = F.mse_loss(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
