# evaluate() runs the model through its own validation_step method with grad on.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)

    def validation_step(self, batch):
        x, y = batch
        out = self(x)  # expect: GPU103
        return {"val_loss": F.cross_entropy(out, y).detach(),
                "val_acc": (out.argmax(1) == y).float().mean()}


def evaluate(model, val_loader):
    model.eval()
    outputs = [model.validation_step(batch) for batch in val_loader]
    return torch.stack([o["val_loss"] for o in outputs]).mean().item()
