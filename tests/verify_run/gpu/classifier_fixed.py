"""The fixed twin of classifier.py: validation under torch.no_grad() with
the loss summed as a number, and no empty_cache()."""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
batch = 256 if device == "cuda" else 8
torch.manual_seed(0)


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


def batches(count):
    for _ in range(count):
        yield torch.randn(batch, 3, 64, 64, device=device), torch.randint(0, 10, (batch,), device=device)


model = Net().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for epoch in range(2):
    model.train()
    for images, labels in batches(30):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()
    model.eval()
    val_loss = 0
    with torch.no_grad():
        for images, labels in batches(20):
            logits = model(images)
            val_loss += F.cross_entropy(logits, labels).item()
    print("epoch", epoch, "val", val_loss / 20, file=sys.stderr)
