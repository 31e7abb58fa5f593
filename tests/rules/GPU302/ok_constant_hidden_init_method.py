import torch
import torch.nn as nn


class CharRNN(nn.Module):
    def __init__(self, vocab, hidden=512, layers=2):
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.embed = nn.Embedding(vocab, 128)
        self.lstm = nn.LSTM(128, hidden, layers, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, state):
        y, state = self.lstm(self.embed(x), state)
        return self.out(y), state


def train(model, batches, device, epochs=10):
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(epochs):
        for x, y in batches:
            x, y = x.to(device), y.to(device)
            h = torch.zeros(model.layers, x.size(0), model.hidden).to(device)
            c = torch.zeros(model.layers, x.size(0), model.hidden).to(device)
            logits, _ = model(x, (h, c))
            loss = nn.functional.cross_entropy(logits.transpose(1, 2), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
