import torch
import torch.nn.functional as F


def train(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward(retain_graph=True)
        optimizer.step()


def train_functional(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        torch.autograd.backward(F.mse_loss(model(x), y), retain_graph=True)
        optimizer.step()


def train_both_keywords(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward(retain_graph=True, inputs=list(model.parameters()))
        optimizer.step()
