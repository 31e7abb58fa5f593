# The loss modules are called through .forward(); the per-batch NLL is
# summed into an epoch total as a tensor, graph and all.
import torch
import torch.nn as nn


class CharLSTM(nn.Module):
    def __init__(self, vocab=96, hidden=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.lstm = nn.LSTM(hidden, hidden, num_layers=2)
        self.projection = nn.Linear(hidden, vocab)

    def forward(self, x):
        states, _ = self.lstm(self.embed(x))
        return self.projection(states)


def train(loader, epochs=10):
    model = CharLSTM().cuda()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=2e-3)
    criterion = nn.CrossEntropyLoss()
    nll_criterion = nn.NLLLoss(reduction="none")
    for epoch in range(epochs):
        nll = 0
        for inputs, targets in loader:
            logits = model.forward(inputs.cuda()).transpose(1, 2)
            optimizer.zero_grad()
            loss = criterion.forward(logits, targets.cuda())
            nll_loss = nll_criterion.forward(logits.log_softmax(1), targets.cuda())
            nll += nll_loss.sum()  # expect: GPU101
            loss.backward()
            optimizer.step()
        print(epoch, nll.item())
