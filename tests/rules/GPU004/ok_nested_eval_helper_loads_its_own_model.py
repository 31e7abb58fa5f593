"""The nested evaluation helper builds its own `model` from the saved
weights and puts that copy in eval mode: the enclosing `model` that the
batch loop trains keeps its mode."""
import torch
import torch.nn as nn


def build():
    return nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.2), nn.Linear(32, 2))


def main(train_batches, dev_batches, epochs=3, steps_between_evals=200):
    model = build()
    optim = torch.optim.SGD(model.parameters(), lr=0.1)

    def run_training_epoch():
        model.train()
        for step, (x, y) in enumerate(train_batches):
            optim.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optim.step()
            if step % steps_between_evals == 0:
                torch.save(model.state_dict(), "snapshot.pt")
                run_dev_epoch()

    @torch.no_grad()
    def run_dev_epoch():
        model = build()
        model.load_state_dict(torch.load("snapshot.pt"))
        model.eval()
        correct = 0
        for x, y in dev_batches:
            correct += (model(x).argmax(-1) == y).sum().item()
        print("dev", correct)

    for _ in range(epochs):
        run_training_epoch()
