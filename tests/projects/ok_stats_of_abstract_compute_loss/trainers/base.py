# The base trainer's update loop keeps each step's stats, which the abstract
# compute_loss hands back beside the loss. The project's implementation
# returns them detached, so nothing kept carries a graph.
import torch

from .stats import merge_stats


class BaseTrainer:
    def __init__(self, policy, optimizer, accelerator):
        self.policy = policy
        self.optimizer = optimizer
        self.accelerator = accelerator

    def compute_loss(self, batch):
        raise NotImplementedError

    def update(self, batches, epochs):
        stats_list = []
        for epoch in range(epochs):
            for batch in batches:
                loss, stats = self.compute_loss(batch)
                self.accelerator.backward(loss)
                stats["grad_norm"] = torch.nn.utils.clip_grad_norm_(self.policy.parameters(), 1.0)
                stats_list.append(stats)
                self.optimizer.step()
                self.optimizer.zero_grad()
        return merge_stats(stats_list, torch.stack)
