"""As a Keras-style fit(), but `model = self.train()` runs at the top of
every epoch."""
import torch
import torch.nn as nn


class TabularNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(width, 64), nn.Dropout(0.5), nn.Linear(64, 1))

    def forward(self, x):
        return self.layers(x)

    def fit(self, loader, val_x, epochs):
        optimizer = torch.optim.Adam(self.parameters())
        for epoch in range(epochs):
            model = self.train()
            for x, y in loader:
                optimizer.zero_grad()
                nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(), y).backward()
                optimizer.step()
            print(epoch, self.predict(val_x).mean())

    def predict(self, x):
        model = self.eval()
        with torch.no_grad():
            return torch.sigmoid(model(x))
