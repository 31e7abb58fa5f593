# The implementation of compute_loss: the stats are detached before they
# leave it.
from .base import BaseTrainer


class PPOTrainer(BaseTrainer):
    def compute_loss(self, batch):
        values = self.policy(batch["queries"])
        value_loss = ((values - batch["returns"]) ** 2).mean()
        stats = {"value_loss": value_loss, "value_mean": values.mean()}
        return value_loss, {key: value.detach() for key, value in stats.items()}
