# A scorer class loops over decode steps with grad on, but nothing in the
# code trains it and no .eval() says it is evaluated: only the shape says
# so (reported with --pedantic only).
import torch.nn as nn


class Speller(nn.Module):
    def __init__(self, vocab, dim, steps):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)
        self.steps = steps

    def forward(self, tokens, state):
        return self.out(self.cell(self.embed(tokens), state))

    def evaluate_batch(self, start, targets, state):
        token, hits = start, 0
        for t in range(self.steps):
            embedded = self.embed(token)  # pedantic: GPU103
            state = self.cell(embedded, state)  # pedantic: GPU103
            logits = self.out(state)  # pedantic: GPU103
            token = logits.argmax(-1)
            hits += (token == targets[:, t]).sum().item()
        return hits
