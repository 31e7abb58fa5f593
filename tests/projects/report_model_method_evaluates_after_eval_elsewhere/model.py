# A seq2seq model that scores a dev set with its own method: the loop runs
# self.forward with grad on, and its only caller switches the model to eval
# mode first (train.py).
import torch.nn as nn


class Seq2seq(nn.Module):
    def __init__(self, vocab=1000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, src, tgt):
        hidden, _ = self.encoder(self.embed(src))
        return self.out(hidden).log_softmax(-1).gather(-1, tgt.unsqueeze(-1)).sum()

    def evaluate_ppl(self, dev_batches):
        total, words = 0.0, 0
        for src, tgt in dev_batches:
            loss = -self.forward(src, tgt)  # expect: GPU103
            total += loss.item()
            words += tgt.numel()
        return total / max(words, 1)
