"""The epoch's validation is written inline after the batch loop, and the
only `.train()` runs once before the epochs: from the second epoch on the
network trains in eval mode."""
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(32, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.3))
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        return self.head(self.body(x))


def fit(train_loader, val_loader, epochs, device):
    net = Classifier().to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    net.train()
    for epoch in range(epochs):
        for inputs, labels in train_loader:
            optimizer.zero_grad()
            loss = loss_fn(net(inputs.to(device)), labels.to(device))
            loss.backward()
            optimizer.step()
        net.eval()  # expect: GPU004
        hits = 0
        with torch.no_grad():
            for inputs, labels in val_loader:
                hits += (net(inputs.to(device)).argmax(1) == labels.to(device)).sum().item()
        print(epoch, hits)
