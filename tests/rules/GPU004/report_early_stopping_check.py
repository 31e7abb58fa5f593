import torch


def early_stop_score(net, loader):
    net.eval()
    with torch.no_grad():
        return -sum(torch.nn.functional.cross_entropy(net(x), y).item() for x, y in loader)


def fit(model, train_loader, val_loader, optimizer, patience=5):
    best, waited = float("-inf"), 0
    model.train()
    for epoch in range(100):
        for x, y in train_loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
        score = early_stop_score(model, val_loader)  # expect: GPU004
        if score > best:
            best, waited = score, 0
        else:
            waited += 1
            if waited >= patience:
                break
