# A point-cloud encoder: every forward of the set layer groups the points
# through a helper that empties the cache between its stages, so every
# training and evaluation step of whatever loop runs the model pays for it.
import torch
import torch.nn as nn


def knn_indices(points, centers, k):
    distances = torch.cdist(centers, points)
    return distances.topk(k, largest=False).indices


def group_points(points, features, num_centers, k):
    centers = points[:, :num_centers]
    torch.cuda.empty_cache()  # expect: GPU201
    idx = knn_indices(points, centers, k)
    torch.cuda.empty_cache()  # expect: GPU201
    batch = torch.arange(points.shape[0], device=points.device)[:, None, None]
    grouped = features[batch, idx]
    return centers, grouped


class SetLayer(nn.Module):
    def __init__(self, channels, num_centers, k):
        super().__init__()
        self.num_centers = num_centers
        self.k = k
        self.mlp = nn.Linear(channels, channels)

    def forward(self, points, features):
        centers, grouped = group_points(points, features, self.num_centers, self.k)
        return centers, self.mlp(grouped).max(dim=2).values


class Head(nn.Module):
    def __init__(self, channels, classes):
        super().__init__()
        self.fc = nn.Linear(channels, classes)

    def forward(self, features):
        out = self.fc(features.mean(dim=1))
        torch.cuda.empty_cache()  # expect: GPU201
        return out
