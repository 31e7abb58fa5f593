# Trains the relighting network end to end through forward().
import torch
import torch.nn.functional as F

from relight.model import RelightNet


def train(loader, epochs=10):
    net = RelightNet().cuda()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
    for _ in range(epochs):
        for image, light, target in loader:
            loss = F.l1_loss(net(image.cuda(), light.cuda()), target.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save(net.state_dict(), "relight.pth")
