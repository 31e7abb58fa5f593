import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, loader, epochs=10):
        self.model = model.cuda()
        self.loader = loader
        self.epochs = epochs
        self.criterion = nn.SmoothL1Loss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)

    def run(self):
        for epoch in range(self.epochs):
            for batch in self.loader:
                pred = self.model(batch["x"].cuda())
                loss = self.criterion(pred, batch["y"].cuda())
                loss.backward()
                self.optimizer.zero_grad()  # expect: GPU002
                self.optimizer.step()
            print(f"epoch {epoch}")


if __name__ == "__main__":
    from data import make_loader
    from model import Regressor

    Trainer(Regressor(), make_loader()).run()
