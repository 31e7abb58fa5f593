# The training loop is a method of the model: fit() keeps every loss with its graph, evaluate() and friends run self(...) after self.eval() with grad on.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, in_dim=784, hidden=256, n_classes=10):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(0.2))
        self.head = nn.Linear(hidden, n_classes)
        self.history = []

    def forward(self, x):
        return self.head(self.embed(x))

    def embed(self, x):
        return self.body(x.flatten(1))  # forward() runs it in training too

    def fit(self, loader, epochs=5, lr=1e-3):
        optimizer = torch.optim.Adam(self.parameters(), lr=lr)
        self.train()
        for epoch in range(epochs):
            for x, y in loader:
                x, y = x.cuda(), y.cuda()
                optimizer.zero_grad()
                loss = F.cross_entropy(self(x), y)
                loss.backward()
                optimizer.step()
                self.history.append(loss)  # expect: GPU101
        return self

    def evaluate(self, loader):
        self.eval()
        correct, seen = 0, 0
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            logits = self(x)  # expect: GPU103
            correct += (logits.argmax(1) == y).sum().item()
            seen += y.numel()
        self.train()
        return correct / seen

    def predict(self, loader):
        self.eval()
        labels = []
        for x, _ in loader:
            scores = self.forward(x.cuda())  # expect: GPU103
            labels.extend(scores.argmax(1).tolist())
        return labels

    def feature_norms(self, loader):
        self.eval()
        norms = []
        for x, _ in loader:
            emb = self.embed(x.cuda())  # expect: GPU103
            norms.append(emb.norm(dim=1).mean().item())
        return norms
