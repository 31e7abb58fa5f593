# The scoring helper runs on a model that nothing in the code trains (a
# checkpoint scored by a script): its caller loads the weights, which require grad.
import torch


def test_epoch(model, criterion, loader):
    total, correct = 0.0, 0
    for x, y in loader:
        y_pred = model(x)  # expect: GPU103
        total += criterion(y_pred, y).item()
        correct += (y_pred.argmax(1) == y).sum().item()
    return total / len(loader), correct


def report(model, criterion, test_loader):
    model.load_state_dict(torch.load("best.pt", map_location="cpu"))
    print(test_epoch(model, criterion, test_loader))
