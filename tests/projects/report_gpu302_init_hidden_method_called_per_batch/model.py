import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SequenceClassifier(nn.Module):
    def __init__(self, features, hidden, classes):
        super().__init__()
        self.hidden_size = hidden
        self.lstm = nn.LSTM(features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, classes)
        self.state = None

    def random_state(self, batch):
        h = torch.randn(1, batch, self.hidden_size).to(device)  # expect: GPU302
        c = torch.randn(1, batch, self.hidden_size).to(device)  # expect: GPU302
        return h, c

    def forward(self, x):
        out, _ = self.lstm(x, self.state)
        return self.head(out[:, -1])
