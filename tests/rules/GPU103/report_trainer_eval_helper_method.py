import torch


class Evaluator:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader

    def predict_batch(self, batch):
        return self.model(batch["image"].cuda())  # expect: GPU103

    def run(self):
        self.model.eval()
        correct = 0
        for batch in self.loader:
            logits = self.predict_batch(batch)
            correct += (logits.argmax(1).cpu() == batch["label"]).sum().item()
        return correct / len(self.loader.dataset)
