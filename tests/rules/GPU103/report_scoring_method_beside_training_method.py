# The model trains itself in `fit_batch` and scores itself in `score_batch`
# with no .eval() and grad on: the decode loop's forwards build graphs that
# no backward uses.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Speller(nn.Module):
    def __init__(self, vocab, dim, steps):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)
        self.steps = steps
        self.optimizer = torch.optim.SGD(self.parameters(), lr=0.1)

    def forward(self, tokens, state):
        return self.out(self.cell(self.embed(tokens), state))

    def fit_batch(self, tokens, targets, state):
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.forward(tokens, state), targets)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def score_batch(self, start, targets, state):
        token, hits = start, 0
        for t in range(self.steps):
            embedded = self.embed(token)  # expect: GPU103
            state = self.cell(embedded, state)  # expect: GPU103
            logits = self.out(state)  # expect: GPU103
            token = logits.argmax(-1)
            hits += (token == targets[:, t]).sum().item()
        return hits
