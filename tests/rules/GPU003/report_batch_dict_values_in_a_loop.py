import torch


def train_epoch(model, train_loader, optimizer, device):
    model.train()
    for batch in train_loader:
        for key, value in batch.items():
            value.to(device)  # expect: GPU003
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
