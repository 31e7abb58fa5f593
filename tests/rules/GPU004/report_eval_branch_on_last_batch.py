import torch


def train_epochs(model, loader, optimizer, criterion, epochs, probe):
    model.train()
    for epoch in range(epochs):
        for i, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
            if i == len(loader) - 1:
                model.eval()  # expect: GPU004
                with torch.no_grad():
                    print(epoch, criterion(model(probe[0]), probe[1]).item())
