# A loss returned by a method of the model class (not Lightning) is appended with its graph.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)

    def training_step(self, batch):
        x, y = batch
        return F.cross_entropy(self(x), y)


def fit(epochs, model, train_loader, optimizer):
    for epoch in range(epochs):
        model.train()
        train_losses = []
        for batch in train_loader:
            loss = model.training_step(batch)
            train_losses.append(loss)  # expect: GPU101
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        print(torch.stack(train_losses).mean().item())
