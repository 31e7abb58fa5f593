"""The inline validation after the batch loop is followed, on every pass,
by `.train()` at the top of the next epoch."""
import torch
import torch.nn as nn


def fit(net, train_loader, val_loader, epochs):
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        net.train()
        for inputs, labels in train_loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(net(inputs), labels).backward()
            optimizer.step()
        net.eval()
        with torch.no_grad():
            for inputs, labels in val_loader:
                print(net(inputs).argmax(1).eq(labels).float().mean().item())


def fit_restored_after_validation(net, train_loader, val_loader, epochs):
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    net.train()
    for epoch in range(epochs):
        for inputs, labels in train_loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(net(inputs), labels).backward()
            optimizer.step()
        net.eval()
        with torch.no_grad():
            for inputs, labels in val_loader:
                print(net(inputs).argmax(1).eq(labels).float().mean().item())
        net.train()


def finetune_frozen_statistics(net, loader, epochs):
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-2)
    for epoch in range(epochs):
        net.eval()
        for inputs, labels in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(net(inputs), labels).backward()
            optimizer.step()
