# The model detaches the state it returns: feeding it back chains nothing.
import torch
import torch.nn as nn


class CharRNN(nn.Module):
    def __init__(self, vocab=96, hidden=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.lstm = nn.LSTM(hidden, hidden)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, state):
        out, state = self.lstm(self.embed(x), state)
        return self.head(out), (state[0].detach(), state[1].detach())


rnn = CharRNN()
optimizer = torch.optim.Adam(rnn.parameters())
state = None
for x, y in batches:
    output, state = rnn(x, state)
    loss = nn.functional.cross_entropy(output.flatten(0, 1), y.flatten())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
