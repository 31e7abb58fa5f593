# Sequence classifier that validates its input shape before running.
import torch.nn as nn


class GRUClassifier(nn.Module):
    def __init__(self, in_features=16, hidden=32, n_classes=3):
        super().__init__()
        self.in_features = in_features
        self.rnn = nn.GRU(in_features, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, n_classes)

    def forward(self, x):
        if x.dim() != 3 or x.size(-1) != self.in_features:
            raise ValueError(f"expected (batch, time, {self.in_features}), got {tuple(x.shape)}")
        _, h = self.rnn(x)
        return self.fc(h[-1])
