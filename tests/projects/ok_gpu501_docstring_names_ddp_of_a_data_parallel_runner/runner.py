"""One process drives every GPU through nn.DataParallel. (An older
version wrapped the model in DistributedDataParallel; the notes about
it live in docs/.)"""
import torch
import torch.nn.functional as F

from utils.checkpoint import load_model, save_model


class Runner:
    def __init__(self, model, optimizer, weights=None):
        self.model = torch.nn.DataParallel(model.cuda())
        self.optimizer = optimizer
        self.start = load_model(weights, self.model, optimizer)

    def train(self, loader, epochs):
        for epoch in range(self.start, epochs):
            for points, target in loader:
                loss = F.mse_loss(self.model(points.cuda()), target.cuda())
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            save_model("last.pth", self.model, self.optimizer, epoch)
