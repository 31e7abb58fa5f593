"""Trajectory matching: a batch preprocessing helper holds a small loop
of its own (pairing consecutive time points), and draws the time index
of each sample on the host before moving it. The helper is called by
the shared step method, which the training loop runs every batch: the
draw outside the helper's loop still runs once per batch."""
import torch


class TrajectoryMatcher:
    def __init__(self, net, optimizer, device):
        self.net = net
        self.optimizer = optimizer
        self.device = device

    def pair_time_points(self, x):
        count, times, _ = x.shape
        pairs = []
        for t in range(times - 1):
            pairs.append(torch.stack((x[:, t], x[:, t + 1])))
        pairs = torch.stack(pairs)
        pick = torch.randint(times - 1, size=(count,)).to(x.device)  # expect: GPU302
        rows = torch.arange(count, device=x.device)
        return pairs[pick, 0, rows], pairs[pick, 1, rows]

    def step(self, x):
        x0, x1 = self.pair_time_points(x)
        t = torch.rand(x0.shape[0], 1, device=x0.device)
        target = x1 - x0
        return ((self.net(t * x1 + (1 - t) * x0, t) - target) ** 2).mean()

    def fit(self, trajectories, epochs):
        for _ in range(epochs):
            for x in trajectories:
                loss = self.step(x.to(self.device))
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
