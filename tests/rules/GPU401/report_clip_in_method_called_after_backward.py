import torch


class Runner:
    def __init__(self, model, optimizer, clip=5.0):
        self.model = model
        self.optimizer = optimizer
        self.clip = clip
        self.scaler = torch.amp.GradScaler("cuda")

    def clip_gradients(self):
        return torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)  # expect: GPU401

    def fit(self, loader):
        for inputs, targets in loader:
            self.optimizer.zero_grad()
            with torch.autocast("cuda"):
                loss = torch.nn.functional.mse_loss(self.model(inputs), targets)
            self.scaler.scale(loss).backward()
            grad_norm = self.clip_gradients()
            self.scaler.step(self.optimizer)
            self.scaler.update()
            print(grad_norm)
