import torch


class AmpLoop:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.grad_scaler = torch.cuda.amp.GradScaler()

    def backward(self, loss):
        self.grad_scaler.scale(loss).backward()

    def run(self, loader):
        for batch in loader:
            self.optimizer.zero_grad()
            with torch.autocast("cuda"):
                loss = self.model(batch)
            self.backward(loss)
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)  # expect: GPU401
            self.grad_scaler.step(self.optimizer)
            self.grad_scaler.update()
