# A trainer keeps the recurrent state on self and feeds it back on every step.
import torch


class LMTrainer:
    def __init__(self, model, opt, crit, bsz):
        self.model, self.opt, self.crit = model, opt, crit
        self.hidden = model.init_hidden(bsz)

    def step(self, x, y):
        output, self.hidden = self.model(x, self.hidden)  # expect: GPU102
        loss = self.crit(output.view(-1, output.size(-1)), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self, batches):
        for x, y in batches:
            self.step(x, y)
