import lightning as L
import torch
import torch.nn.functional as F
from torch import nn

from data import MNISTDataModule


class LitClassifier(L.LightningModule):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


trainer = L.Trainer(max_epochs=5, accelerator="gpu", devices=1)
trainer.fit(LitClassifier(), datamodule=MNISTDataModule("data"))
