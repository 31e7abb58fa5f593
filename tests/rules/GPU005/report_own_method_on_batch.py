import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 3, padding=1)
        self.conv2 = nn.Conv2d(64, 64, 3, padding=1)
        self.fc = nn.Linear(64, 10)

    def features(self, x):
        return F.relu(self.conv2(F.relu(self.conv1(x))))

    def forward(self, x):
        return self.fc(x.mean((2, 3)))


def train(net, loader, optimizer, device):
    for images, labels in loader:
        images = images.to(device)
        feats = checkpoint(net.features, images)  # expect: GPU005
        loss = F.cross_entropy(net(feats), labels.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
