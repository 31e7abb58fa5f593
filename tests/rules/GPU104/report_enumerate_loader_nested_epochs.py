import torch
from torch import nn
from torch.utils.data import DataLoader


def main(dataset, epochs=10):
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 2)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    for epoch in range(epochs):
        for i, (x, y) in enumerate(loader):
            out = model(x.cuda())
            loss = criterion(out, y.cuda())
            optimizer.zero_grad()
            loss.backward(retain_graph=True)  # expect: GPU104
            optimizer.step()
            if i % 100 == 0:
                print(epoch, i, loss.item())
