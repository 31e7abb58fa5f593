"""lstm_lm.py with the hidden state detached at each window (truncated
backpropagation through time done right), so that the run gets past the
second backward: its one pitfall is the missing zero_grad(), which the
crash of lstm_lm.py hides."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
vocab, hidden, batch, bptt = 10000, 512 if device == "cuda" else 32, 32, 35
torch.manual_seed(0)


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.LSTM(hidden, hidden, num_layers=2)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens, state):
        output, state = self.rnn(self.embed(tokens), state)
        return self.out(output), state


model = LM().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
corpus = torch.randint(0, vocab, (bptt * 200 + 1, batch), device=device)
state = None
for i in range(0, corpus.size(0) - 1 - bptt, bptt):
    tokens, targets = corpus[i:i + bptt], corpus[i + 1:i + 1 + bptt]
    if state is not None:
        state = tuple(s.detach() for s in state)
    logits, state = model(tokens, state)
    loss = F.cross_entropy(logits.view(-1, vocab), targets.reshape(-1))
    loss.backward()
    optimizer.step()
