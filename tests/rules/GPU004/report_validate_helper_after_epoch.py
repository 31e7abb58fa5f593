import torch
import torch.nn.functional as F


def validate(net, loader, device):
    net.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (net(x.to(device)).argmax(1) == y.to(device)).sum().item()
    return correct / len(loader.dataset)


def train(model, train_loader, val_loader, optimizer, device, epochs):
    model.train()
    for epoch in range(epochs):
        for x, y in train_loader:
            loss = F.cross_entropy(model(x.to(device)), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = validate(model, val_loader, device)  # expect: GPU004
        print(f"epoch {epoch}: {acc:.3f}")
