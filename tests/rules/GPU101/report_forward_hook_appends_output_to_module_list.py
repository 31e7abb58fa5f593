import torch
import torch.nn.functional as F

from nets import build_resnet

activations = []


def save_activation(module, inputs, output):
    activations.append(output)  # expect: GPU101


def main(loader, epochs=10):
    model = build_resnet().cuda()
    model.layer4.register_forward_hook(save_activation)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(epochs):
        for images, labels in loader:
            loss = F.cross_entropy(model(images.cuda()), labels.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, len(activations))
