import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, loader, device="cuda"):
        self.device = device
        self.model = model.to(device)
        self.loader = loader
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1, momentum=0.9)
        self.criterion = nn.BCEWithLogitsLoss()

    def fit(self, epochs):
        for epoch in range(epochs):
            for images, _ in self.loader:
                images = images.to(self.device)
                labels = torch.ones(images.size(0), 1)
                labels = labels.to(self.device)
                loss = self.criterion(self.model(images), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
