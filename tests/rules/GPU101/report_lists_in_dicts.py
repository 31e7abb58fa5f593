# Lists held in dicts keep the appended losses with their graphs.
import torch
from collections import defaultdict


def train(model, loader, opt, crit):
    history = {"loss": []}
    logs = defaultdict(list)
    for x, y in loader:
        opt.zero_grad()
        loss = crit(model(x), y)
        loss.backward()
        opt.step()
        history["loss"].append(loss)  # expect: GPU101
        logs["train_loss"].append(loss)  # expect: GPU101
    return history, logs
