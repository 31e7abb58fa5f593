import torch


class Trainer:
    def __init__(self, model, optimizer, max_norm):
        self.model = model
        self.optimizer = optimizer
        self.max_norm = max_norm
        self.scaler = torch.amp.GradScaler("cuda")

    def unscale_and_clip(self):
        self.scaler.unscale_(self.optimizer)
        return torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)

    def prepare_clip(self):
        self.scaler.unscale_(self.optimizer)

    def step(self, batch):
        self.optimizer.zero_grad()
        with torch.autocast("cuda"):
            loss = self.model(batch)
        self.scaler.scale(loss).backward()
        norm = self.unscale_and_clip()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return norm

    def step_two(self, batch):
        self.optimizer.zero_grad()
        with torch.autocast("cuda"):
            loss = self.model(batch)
        self.scaler.scale(loss).backward()
        self.prepare_clip()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.scaler.step(self.optimizer)
        self.scaler.update()
