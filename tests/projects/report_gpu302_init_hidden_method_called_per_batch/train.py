import torch
import torch.nn.functional as F

from model import SequenceClassifier, device


def train(loader, epochs=10, batch=32):
    net = SequenceClassifier(16, 64, 2).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for series, labels in loader:
            net.state = net.random_state(batch)
            loss = F.cross_entropy(net(series.to(device)), labels.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
