# The set-abstraction layer: each forward samples centers and gathers
# their neighbourhoods; only an out-of-memory error makes the gathering
# helper empty the cache and retry in halves.
import torch
import torch.nn as nn


def sample_centers(points, count):
    step = max(points.shape[1] // count, 1)
    return points[:, ::step][:, :count]


def gather_neighbours(points, centers, radius, k):
    try:
        distances = torch.cdist(centers, points)
    except torch.cuda.OutOfMemoryError:
        torch.cuda.empty_cache()
        half = centers.shape[1] // 2
        distances = torch.cat([torch.cdist(centers[:, :half], points), torch.cdist(centers[:, half:], points)], 1)
    distances[distances > radius] = float("inf")
    return distances.topk(k, largest=False).indices


def free_cached_blocks():
    torch.cuda.empty_cache()


class SetAbstraction(nn.Module):
    def __init__(self, count, radius, k, channels):
        super().__init__()
        self.count, self.radius, self.k = count, radius, k
        self.mlp = nn.Sequential(nn.Linear(channels, channels), nn.ReLU())

    def forward(self, points, features):
        centers = sample_centers(points, self.count)
        idx = gather_neighbours(points, centers, self.radius, self.k)
        batch = torch.arange(points.shape[0], device=points.device)[:, None, None]
        return centers, self.mlp(features[batch, idx]).max(dim=2).values
