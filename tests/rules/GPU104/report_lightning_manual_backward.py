import torch
import lightning as L
import torch.nn.functional as F


class Regressor(L.LightningModule):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        optimizer = self.optimizers()
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        optimizer.zero_grad()
        self.manual_backward(loss, retain_graph=True)  # expect: GPU104
        optimizer.step()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
