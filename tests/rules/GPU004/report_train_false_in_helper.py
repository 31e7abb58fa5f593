import torch


def compute_val_loss(model, batches, criterion):
    model.train(False)
    with torch.no_grad():
        return sum(criterion(model(x), y).item() for x, y in batches)


def run(model, loader, batches, optimizer, criterion, epochs):
    model.train(True)
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        val_loss = compute_val_loss(model, batches, criterion)  # expect: GPU004
        print(val_loss)
