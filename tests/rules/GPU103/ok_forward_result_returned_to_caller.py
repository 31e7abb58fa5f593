# A helper runs the model over chunks and returns the log-probabilities with their graph: its caller computes the
# loss on them, so the chunk loop is part of training, not an evaluation loop.
import torch
import torch.nn.functional as F


class PolicyTrainer:
    def __init__(self, model: torch.nn.Module, optimizer):
        self.model = model
        self.optimizer = optimizer

    def chunked_logps(self, input_ids, chunk=4):
        logps = []
        for start in range(0, input_ids.size(0), chunk):
            logits = self.model(input_ids[start:start + chunk])
            logps.append(F.log_softmax(logits, dim=-1).amax(-1))
        return torch.cat(logps)

    def loss(self, input_ids, advantages):
        return -(self.chunked_logps(input_ids) * advantages).mean()
