# The step loop calls an evaluation helper (with a loop of its own) every N steps and empties the cache every step:
# the helper's loop does not make the step loop an epoch loop.
import torch
import torch.nn as nn


class Solver:
    def __init__(self, model: nn.Module, train_set, dev_set):
        self.model = model.cuda()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.train_set, self.dev_set = train_set, dev_set
        self.step = 0

    def validate(self):
        self.model.eval()
        with torch.no_grad():
            for feats, labels in self.dev_set:
                self.model(feats.cuda())
        self.model.train()

    def run(self, max_steps):
        while self.step < max_steps:
            for feats, labels in self.train_set:
                loss = nn.functional.cross_entropy(self.model(feats.cuda()), labels.cuda())
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.step += 1
                if self.step % 1000 == 0:
                    self.validate()
                torch.cuda.empty_cache()  # expect: GPU201
