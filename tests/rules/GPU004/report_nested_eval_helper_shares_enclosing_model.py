"""The training and evaluation helpers are nested in `main` and both use
its `model`. The evaluation runs every few hundred steps inside the batch
loop, and the only `.train()` is at the top of the epoch: after the first
evaluation the rest of the epoch trains in eval mode."""
import torch
import torch.nn as nn


def main(train_batches, dev_batches, epochs=3, steps_between_evals=200):
    model = nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.2), nn.Linear(32, 2))
    optim = torch.optim.SGD(model.parameters(), lr=0.1)

    def run_training_epoch():
        model.train()
        for step, (x, y) in enumerate(train_batches):
            optim.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optim.step()
            if step % steps_between_evals == 0:
                run_dev_epoch()  # expect: GPU004

    @torch.no_grad()
    def run_dev_epoch():
        model.eval()
        correct = 0
        for x, y in dev_batches:
            correct += (model(x).argmax(-1) == y).sum().item()
        print("dev", correct)

    for _ in range(epochs):
        run_training_epoch()
