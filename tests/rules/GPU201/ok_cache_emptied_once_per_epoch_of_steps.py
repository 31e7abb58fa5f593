"""The epoch loop empties the cache once, after the batch loop that steps
the optimizer; the epoch loop itself steps only the scheduler."""
import torch


def train(model, optimizer, scheduler, loader, epochs):
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
            loss.backward()
            optimizer.step()
        scheduler.step()
        torch.cuda.empty_cache()
