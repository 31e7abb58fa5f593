# One run_epoch() serves training and evaluation; in evaluation the forwards run with grad on and the backward never runs.
import torch
import torch.nn.functional as F


def run_epoch(loader, is_training, model, optimizer):
    losses = []
    if is_training:
        model.train()
    else:
        model.eval()
    for x, y in loader:
        if is_training:
            optimizer.zero_grad()
        out = model(x)  # expect: GPU103
        loss = F.mse_loss(out, y)
        if is_training:
            loss.backward()
            optimizer.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


def train_model(train_data, dev_data, model, optimizer, epochs):
    for epoch in range(epochs):
        run_epoch(train_data, True, model, optimizer)
        run_epoch(dev_data, False, model, optimizer)
