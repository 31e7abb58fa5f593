# GRU encoder and an attention decoder whose pieces are called one step at a time.
import torch
import torch.nn as nn

from models.attention import Attention


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hid_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.rnn = nn.GRU(emb_dim, hid_dim, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hid_dim, hid_dim)

    def forward(self, src):
        out, h = self.rnn(self.embedding(src))
        h = torch.tanh(self.bridge(torch.cat([h[0], h[1]], dim=-1)))
        return out, h


class Decoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, enc_dim, hid_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.attention = Attention(enc_dim, hid_dim, hid_dim)
        self.rnn = nn.GRUCell(emb_dim + enc_dim, hid_dim)
        self.fc = nn.Linear(hid_dim, vocab_size)

    def forward(self, tgt, enc_out, h):
        logits = []
        for t in range(tgt.size(1)):
            ctx, _ = self.attention(enc_out, h)
            h = self.rnn(torch.cat([self.embedding(tgt[:, t]), ctx], dim=-1), h)
            logits.append(self.fc(h))
        return torch.stack(logits, dim=1)
