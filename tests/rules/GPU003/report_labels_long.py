import torch
import torch.nn as nn


def train(model, train_loader, epochs, device):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    for epoch in range(epochs):
        for features, labels in train_loader:
            features = features.to(device)
            labels = labels.to(device)
            labels.long()  # expect: GPU003
            logits = model(features)
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
