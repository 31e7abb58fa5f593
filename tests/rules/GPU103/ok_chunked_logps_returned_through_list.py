# Log-probabilities computed chunk by chunk are collected in a list, stacked and returned to the loss that
# backpropagates them: the chunk loop is training, even though the function itself has no backward.
import torch
from trainkit import selective_log_softmax


class GRPOTrainer:
    def __init__(self, model: torch.nn.Module, temperature=1.0):
        self.model = model
        self.temperature = temperature

    def _per_token_logps(self, model, input_ids, chunk=8):
        all_logps = []
        for start in range(0, input_ids.size(0), chunk):
            ids = input_ids[start:start + chunk]
            logits = model(ids).logits
            logits = logits[:, :-1, :] / self.temperature
            logps = selective_log_softmax(logits, ids[:, 1:])
            all_logps.append(logps)
        logps = torch.cat(all_logps, dim=0)
        return logps

    def compute_loss(self, input_ids, advantages):
        self.model.train()
        logps = self._per_token_logps(self.model, input_ids)
        return -(logps.sum(-1) * advantages).mean()
