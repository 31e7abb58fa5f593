# The loss goes to an averager whose add() sums the tensors themselves.
import torch
import torch.nn as nn

import utils


class Recognizer(nn.Module):
    def __init__(self, classes=37):
        super().__init__()
        self.rnn = nn.LSTM(64, 128, bidirectional=True)
        self.head = nn.Linear(256, classes)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out)


def train(loader, epochs=5):
    model = Recognizer()
    criterion = nn.CTCLoss()
    optimizer = torch.optim.Adam(model.parameters())
    loss_avg = utils.Averager()
    for epoch in range(epochs):
        for images, targets, lengths in loader:
            preds = model(images).log_softmax(2)
            cost = criterion(preds, targets, torch.full((images.size(1),), images.size(0)), lengths)
            optimizer.zero_grad()
            cost.backward()
            optimizer.step()
            loss_avg.add(cost)  # expect: GPU101
        print(epoch, loss_avg.val())
        loss_avg.reset()
