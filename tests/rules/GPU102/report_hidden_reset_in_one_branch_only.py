# The state is rebuilt in one branch of an if/else only: on the other path
# the previous iteration's hidden state (and its graph) is fed back.
import torch
import torch.nn as nn


class CharLSTM(nn.Module):
    def __init__(self, vocab=96, hidden=512):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.lstm = nn.LSTM(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, state):
        out, state = self.lstm(self.embed(x), state)
        return self.head(out), state


model = CharLSTM().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
criterion = nn.CrossEntropyLoss()
state = None
for step, (x, y) in enumerate(loader):
    if step % 100 == 0:
        state = None
    else:
        print("step", step)
    optimizer.zero_grad()
    logits, state = model(x.cuda(), state)  # expect: GPU102
    loss = criterion(logits.flatten(0, 1), y.cuda().flatten())
    loss.backward()
    optimizer.step()
