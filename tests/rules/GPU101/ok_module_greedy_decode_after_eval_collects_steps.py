# A language model's own greedy decoder: after self.eval() it runs a fixed number of steps and collects each
# step's logits in a list that the call concatenates and returns (grad on is a GPU103 fault of its own); the steps
# of one decoding are no batches.
import torch
import torch.nn as nn


class WordLM(nn.Module):
    def __init__(self, vocab, hidden=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.LSTM(hidden, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        h, state = self.rnn(self.embed(x), state)
        return self.out(h), state

    def decode(self, start, steps=20):
        self.eval()
        token, state = start, None
        step_logits = []
        for _ in range(steps):
            logits, state = self(token, state)  # expect: GPU103
            step_logits.append(logits)
            token = logits.argmax(-1)
        return torch.cat(step_logits)
