import torch


class MultiTaskTrainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def backward_task(self, loss):
        loss.backward(retain_graph=True)

    def train(self, loader, criterion):
        for x, y, z in loader:
            self.optimizer.zero_grad()
            out_y, out_z = self.model(x)
            self.backward_task(criterion(out_y, y))
            criterion(out_z, z).backward()
            self.optimizer.step()
