"""Each pass of the outer loop is one optimizer update over micro-batches
accumulated by the inner loop: the cache is emptied after every update."""
import torch


class Trainer:
    def __init__(self, model, optimizer, loader, accumulation):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader
        self.accumulation = accumulation

    def train_epoch(self):
        self.model.train()
        batches = iter(self.loader)
        for update in range(len(self.loader) // self.accumulation):
            self.optimizer.zero_grad()
            for micro in range(self.accumulation):
                x, y = next(batches)
                loss = torch.nn.functional.mse_loss(self.model(x.cuda()), y.cuda()) / self.accumulation
                loss.backward()
            self.optimizer.step()
            torch.cuda.empty_cache()  # expect: GPU201
