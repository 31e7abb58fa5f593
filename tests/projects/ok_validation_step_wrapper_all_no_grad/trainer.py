# validate() and evaluate() are both @torch.no_grad(), so validation_step -> _forward never runs eval mode with grad on.
import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, device="cuda"):
        self.model = model
        self.optimizer = optimizer
        self.device = device

    def _to_device(self, batch):
        return {k: v.to(self.device, non_blocking=True) for k, v in batch.items()}

    def _forward(self, batch):
        return self.model(batch)

    def training_step(self, batch):
        batch = self._to_device(batch)
        logits = self._forward(batch)
        loss = F.cross_entropy(logits, batch["labels"])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def validation_step(self, batch):
        batch = self._to_device(batch)
        logits = self._forward(batch)
        correct = (logits.argmax(dim=-1) == batch["labels"]).sum().item()
        return correct, batch["labels"].numel()

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        correct = total = 0
        for b in loader:
            c, n = self.validation_step(b)
            correct += c
            total += n
        return correct / total

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()
        correct = total = 0
        for b in loader:
            c, n = self.validation_step(b)
            correct += c
            total += n
        self.model.train()
        return correct / total

    def fit(self, train_loader, val_loader, epochs):
        for epoch in range(epochs):
            self.model.train()
            losses = []
            for b in train_loader:
                losses.append(self.training_step(b))
            acc = self.validate(val_loader)
            print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f} val acc {acc:.4f}")
