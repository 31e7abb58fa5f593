import torch


def test(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            pred = model(data).argmax(dim=1)
            correct += pred.eq(target).sum().item()
    return correct


def main(model, train_loader, test_loader, optimizer, epochs):
    best = 0
    model.train()
    for epoch in range(1, epochs + 1):
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()
        correct = test(model, test_loader)  # expect: GPU004
        if correct > best:
            best = correct
            torch.save(model.state_dict(), "best.pt")
