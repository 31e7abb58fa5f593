# Both calls hand run_epoch() an optimizer, so the backward may run on either: nothing rules it out, and the
# second pass (fine-tuning after a frozen-statistics phase) trains with batch norm in eval mode on purpose.
import torch


def run_epoch(model, loader, criterion, optimizer=None):
    for inputs, target in loader:
        loss = criterion(model(inputs), target)
        if optimizer is not None:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def main(model, loader, criterion, epochs=5):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        model.train()
        run_epoch(model, loader, criterion, optimizer)
    model.eval()
    run_epoch(model, loader, criterion, optimizer)
