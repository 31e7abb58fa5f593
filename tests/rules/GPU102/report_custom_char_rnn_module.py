import torch
import torch.nn as nn

from data import text_batches


class CharRNN(nn.Module):
    def __init__(self, vocab, hidden=512):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, h):
        y, h = self.rnn(self.embed(x), h)
        return self.out(y), h


model = CharRNN(vocab=128).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
h = torch.zeros(1, 64, 512, device="cuda")
for x, y in text_batches(batch_size=64, seq_len=100):
    optimizer.zero_grad()
    logits, h = model(x.cuda(), h)  # expect: GPU102
    loss = nn.functional.cross_entropy(logits.transpose(1, 2), y.cuda())
    loss.backward()
    optimizer.step()
