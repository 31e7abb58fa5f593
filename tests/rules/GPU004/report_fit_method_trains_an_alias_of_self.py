"""A Keras-style fit() method: `model = self.train()` once before the
epochs (train() returns the module itself), then per epoch an evaluate()
method of the same class whose predict() calls `self.eval()`."""
import torch
import torch.nn as nn


class TabularNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(width, 64), nn.Dropout(0.5), nn.Linear(64, 1))

    def forward(self, x):
        return self.layers(x)

    def fit(self, loader, val_x, epochs):
        model = self.train()
        optimizer = torch.optim.Adam(model.parameters())
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(), y)
                loss.backward()
                optimizer.step()
            print(epoch, self.evaluate(val_x))  # expect: GPU004

    def evaluate(self, x):
        return self.predict(x).mean()

    def predict(self, x):
        model = self.eval()
        with torch.no_grad():
            return torch.sigmoid(model(x))
