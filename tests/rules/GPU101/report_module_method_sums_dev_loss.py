# The model scores the dev set with a method of its own: the loss tensors
# are summed with their graphs over every dev batch.
import math

import torch
import torch.nn as nn


class NMT(nn.Module):
    def __init__(self, vocab=8000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.LSTM(dim, dim, batch_first=True)
        self.generator = nn.Linear(dim, vocab)
        self.loss = nn.CrossEntropyLoss(reduction="sum")

    def score(self, src, tgt):
        hidden, _ = self.encoder(self.embed(src))
        return self.loss(self.generator(hidden).flatten(0, 1), tgt.flatten())

    def evaluate_ppl(self, dev_batches):
        cum_loss, words = 0.0, 0
        for src, tgt in dev_batches:
            loss = self.score(src, tgt)
            cum_loss += loss  # expect: GPU101
            words += tgt.numel()
        return math.exp(cum_loss / words)

    def collect_states(self, src):
        steps = []
        for t in range(src.size(1)):
            steps.append(self.embed(src[:, t]))
        return torch.stack(steps, 1)
