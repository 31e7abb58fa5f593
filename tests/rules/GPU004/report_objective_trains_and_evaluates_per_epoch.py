"""A hyper-parameter search's objective trains and evaluates per epoch;
the evaluation switches the model to eval mode inline and nothing sets it
back."""
import torch
import torch.nn as nn


def objective(trial, train_loader, valid_loader):
    width = trial.suggest_int("width", 16, 128)
    model = nn.Sequential(nn.Linear(20, width), nn.Dropout(0.2), nn.ReLU(), nn.Linear(width, 2)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=trial.suggest_float("lr", 1e-4, 1e-1, log=True))
    accuracy = 0.0
    for epoch in range(10):
        model.train()
        for features, target in train_loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(features.cuda()), target.cuda()).backward()
            optimizer.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for features, target in valid_loader:
                correct += (model(features.cuda()).argmax(1) == target.cuda()).sum().item()
        accuracy = correct / len(valid_loader.dataset)
        trial.report(accuracy, epoch)
    return accuracy


def search(study_loaders, trial):
    train_loader, valid_loader = study_loaders
    model = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.Linear(64, 2))
    optimizer = torch.optim.Adam(model.parameters())
    model.train()
    for epoch in range(5):
        for features, target in train_loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(features), target).backward()
            optimizer.step()
        model.eval()  # expect: GPU004
        with torch.no_grad():
            score = sum(model(f).argmax(1).eq(t).sum().item() for f, t in valid_loader)
        trial.report(score, epoch)
