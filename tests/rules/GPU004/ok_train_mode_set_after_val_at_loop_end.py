import torch


def validate(net, loader):
    net.eval()
    with torch.no_grad():
        return sum(net(x).sum().item() for x, _ in loader)


def train(model, loader, val_loader, optimizer, epochs):
    model.train()
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
        validate(model, val_loader)
        model.train()
