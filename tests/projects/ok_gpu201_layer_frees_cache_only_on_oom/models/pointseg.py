import torch.nn as nn

from layers import SetAbstraction


class get_model(nn.Module):
    def __init__(self, classes, channels=64):
        super().__init__()
        self.embed = nn.Linear(3, channels)
        self.sa1 = SetAbstraction(512, 0.2, 32, channels)
        self.sa2 = SetAbstraction(128, 0.4, 32, channels)
        self.head = nn.Linear(channels, classes)

    def forward(self, points):
        features = self.embed(points)
        centers, features = self.sa1(points, features)
        _, features = self.sa2(centers, features)
        return self.head(features.mean(dim=1))
