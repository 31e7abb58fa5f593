# Supervised fine-tuning through the strategy: backward and the optimizer
# step both go to the engine, which clears its gradients after each step.
import torch


class SFTTrainer:
    def __init__(self, strategy, model, optimizer, scheduler, loader):
        self.strategy = strategy
        self.model = model
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.loader = loader

    def fit(self, epochs):
        for epoch in range(epochs):
            self.model.train()
            total = 0.0
            for input_ids, labels in self.loader:
                logits = self.model(input_ids)
                loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
                self.strategy.backward(loss, self.model, self.optimizer)
                self.strategy.optimizer_step(self.optimizer, self.model, self.scheduler)
                total += loss.item()
            print(epoch, total)
