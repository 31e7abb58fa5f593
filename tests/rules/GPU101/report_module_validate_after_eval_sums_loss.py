# A language model's own validation method: after self.eval() it runs over an iterator whose name says nothing and
# sums the loss with grad on, so every batch's graph stays alive until the method returns.
import torch
import torch.nn as nn


class WordLM(nn.Module):
    def __init__(self, vocab, hidden=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.LSTM(hidden, hidden)
        self.out = nn.Linear(hidden, vocab)
        self.vocab = vocab

    def forward(self, x, state=None):
        h, state = self.rnn(self.embed(x), state)
        return self.out(h), state

    def validate(self, it, criterion):
        self.eval()
        valid_loss = 0
        state = None
        for batch in it:
            logits, state = self(batch.text, state)  # expect: GPU103
            valid_loss += criterion(logits.view(-1, self.vocab), batch.target.view(-1))  # expect: GPU101
        return valid_loss.item() / len(it)
