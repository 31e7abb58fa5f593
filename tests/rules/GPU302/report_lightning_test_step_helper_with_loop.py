"""A Lightning module's test step hands image batches to a sampling
helper that draws the starting noise on the host and converts it with
`type_as`, then saves each generated image in a loop: the helper runs
once per test batch, so the draw before its loop does too."""
import torch
from pytorch_lightning import LightningModule
from torchvision.utils import save_image


class ImageFlow(LightningModule):
    def __init__(self, net, shape):
        super().__init__()
        self.net = net
        self.shape = shape

    def sample_images(self, batch, batch_idx):
        x = torch.randn(batch[0].shape[0], *self.shape).type_as(batch[0])  # expect: GPU302
        for t in torch.linspace(0, 1, 20):
            x = x + self.net(x, t) / 20
        for i, image in enumerate(x.clamp(0, 1)):
            save_image(image, f"samples/{batch_idx}_{i}.png")

    def eval_step(self, batch, batch_idx, prefix):
        if prefix == "test":
            self.sample_images(batch, batch_idx)
        return {"x": batch[0]}

    def training_step(self, batch, batch_idx):
        x1 = batch[0]
        t = torch.rand(x1.shape[0], 1, 1, 1, device=x1.device)
        x0 = torch.randn_like(x1)
        return ((self.net(t * x1 + (1 - t) * x0, t) - (x1 - x0)) ** 2).mean()

    def test_step(self, batch, batch_idx):
        return self.eval_step(batch, batch_idx, "test")
