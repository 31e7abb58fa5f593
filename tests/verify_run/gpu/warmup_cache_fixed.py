"""warmup_cache.py without `torch.cuda.empty_cache()`: the same warm-up,
logging and checkpoint steps."""
import os
import sys
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
batch = 256 if device == "cuda" else 4
torch.manual_seed(0)
torch.backends.cudnn.benchmark = False


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.BatchNorm2d(128), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(128, 256, 3, padding=1), nn.BatchNorm2d(256), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(256, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def batch_at(step):
    size = 128 if step < 12 else 64  # the warm-up runs at twice the resolution
    return torch.randn(batch, 3, size, size, device=device), torch.randint(0, 10, (batch,), device=device)


model = Net().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
held_out = batch_at(100)
checkpoint = os.path.join(tempfile.mkdtemp(), "last.pt")
for step in range(400):
    model.train()
    images, labels = batch_at(step)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
    if step % 4 == 3:
        model.eval()
        with torch.no_grad():
            accuracy = (model(held_out[0]).argmax(1) == held_out[1]).float().mean().item()
        print("step", step, "loss", loss.item(), "accuracy", accuracy, file=sys.stderr)
    if step % 25 == 24:
        torch.save(model.state_dict(), checkpoint)
