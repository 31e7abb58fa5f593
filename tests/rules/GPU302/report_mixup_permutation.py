import numpy as np
import torch
import torch.nn as nn


def mixup_epoch(model, loader, optimizer, device, alpha=0.2):
    criterion = nn.CrossEntropyLoss()
    model.train()
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        lam = np.random.beta(alpha, alpha)
        index = torch.randperm(inputs.size(0)).to(device)  # expect: GPU302
        mixed = lam * inputs + (1 - lam) * inputs[index]
        outputs = model(mixed)
        loss = lam * criterion(outputs, targets) + (1 - lam) * criterion(outputs, targets[index])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
