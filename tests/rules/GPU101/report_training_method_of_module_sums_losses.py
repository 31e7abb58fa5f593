# A module's own training method sums its batch losses with their graphs:
# the loop trains (backward and step), so it runs over batches, whatever its
# iterable is called, and the total outlives every iteration.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LanguageModel(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.proj(self.embed(tokens))

    def train_epoch(self, stream, optimizer):
        self.train()
        epoch_loss = 0
        for chunk in stream:
            optimizer.zero_grad()
            chunk_loss = F.cross_entropy(self(chunk.text).flatten(0, 1), chunk.target.flatten())
            chunk_loss.backward()
            epoch_loss += chunk_loss  # expect: GPU101
            optimizer.step()
        return epoch_loss.item()
