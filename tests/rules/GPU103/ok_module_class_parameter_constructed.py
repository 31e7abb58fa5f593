# `model_class: Type[nn.Module]` is a class: calling it builds a model, it runs no forward.
from typing import Type

import torch
import torch.nn as nn


def build_all(model_class: Type[nn.Module], configs):
    models = []
    for config in configs:
        model = model_class(**config)
        model.eval()
        models.append(model)
    return models
