from typing import Tuple

import torch
from torch import Tensor, nn


def train_step(model: nn.Module, optimizer, x: torch.Tensor, y: Tensor, device: torch.device) -> float:
    x.to(device)  # expect: GPU003
    y.to(device)  # expect: GPU003
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def split(batch: Tuple[Tensor, Tensor]):
    return batch
