# A LightningDataModule is no nn.Module: calling its methods in a loop runs no forward.
import lightning as L
import torch


class Batches(L.LightningDataModule):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def train_dataloader(self):
        return [torch.randn(4, 8) for _ in range(self.n)]


data = Batches(3)
data.setup("fit")
shapes = []
for batch in data.train_dataloader():
    shapes.append(tuple(batch.shape))
print(shapes)
