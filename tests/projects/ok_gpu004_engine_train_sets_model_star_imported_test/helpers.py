import torch


def test(epoch, net, loader):
    net.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += net(x).argmax(1).eq(y).sum().item()
    print(epoch, correct)
    return correct
