import torch

from nets.backbone import Backbone


def place(module, device):
    module.to(device)


def main(loader, device="cuda"):
    model = Backbone(width=128)
    model.cuda()
    model.half()
    place(model, device)
    teacher = Backbone()
    teacher.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for images, labels in loader:
        images, labels = images.to(device).half(), labels.to(device)
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(images).float(), labels)
        loss.backward()
        optimizer.step()
