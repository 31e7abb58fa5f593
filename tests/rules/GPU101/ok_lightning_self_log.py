import lightning as L
import torch
import torch.nn.functional as F


class LitRegressor(L.LightningModule):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.val_outputs = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        self.log("train_loss", loss, on_step=True, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        self.log("val_loss", loss, prog_bar=True)
        self.val_outputs.append(loss.detach())

    def on_validation_epoch_end(self):
        self.log("val_loss_epoch", torch.stack(self.val_outputs).mean())
        self.val_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
