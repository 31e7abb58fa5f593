"""Sampling conformations: one host draw per molecule, before a whole
denoising loop of many forwards; and an epoch loop whose batch loop sits
in a helper, with a sample drawn once per epoch after it."""
import torch


def sample_conformations(model, scheduler, dataset, device):
    for batch in dataset:
        pos = torch.randn(batch.num_nodes, 3).to(device)
        for t in scheduler.timesteps:
            with torch.no_grad():
                pos = scheduler.step(model(batch, pos, t), t, pos).prev_sample
        yield pos


def train_epoch(model, loader, optimizer):
    for x, _ in loader:
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def fit(model, loader, optimizer, epochs, device):
    for epoch in range(epochs):
        train_epoch(model, loader, optimizer)
        with torch.no_grad():
            sample = model.decode(torch.randn(64, 20).to(device))
        print(epoch, sample.shape)
