import torch
from torch import nn
from torch.utils import checkpoint


class LanguageModel(nn.Module):
    def __init__(self, embeddings, hidden):
        super().__init__()
        self.emb = nn.Embedding(embeddings.size(0), embeddings.size(1))
        self.emb.weight.data.copy_(embeddings)
        self.emb.weight.requires_grad = False
        self.rnn = nn.LSTM(embeddings.size(1), hidden, batch_first=True)
        self.out = nn.Linear(hidden, embeddings.size(0))

    def forward(self, tokens):
        e = self.emb(tokens)
        h, _ = checkpoint.checkpoint(self.rnn, e, use_reentrant=True)  # expect: GPU005
        return self.out(h)
