# torch_xla's optimizer_step() steps the optimizer it is given; nothing
# clears the gradients between iterations.
import torch
import torch.nn.functional as F
import torch_xla.core.xla_model as xm

from model import Classifier


def train(loader, epochs=3):
    device = xm.xla_device()
    model = Classifier().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x.to(device)), y.to(device))
            loss.backward()  # expect: GPU001
            xm.optimizer_step(optimizer)
