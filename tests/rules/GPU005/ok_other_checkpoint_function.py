import torch
import torch.nn as nn


def checkpoint(model, path):
    torch.save(model.state_dict(), path)


class Net(nn.Module):
    def __init__(self, vectors):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors)
        self.fc = nn.Linear(vectors.size(1), 2)

    def forward(self, ids):
        return self.fc(self.embed(ids).mean(1))


def train(net, loader, optimizer):
    for ids, y in loader:
        loss = nn.functional.cross_entropy(net(ids), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    checkpoint(net, "net.pt")
