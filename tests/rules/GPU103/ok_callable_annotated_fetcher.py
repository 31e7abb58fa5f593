# A parameter annotated as a callable that returns model inputs is a data fetcher, not a module.
from typing import Callable, Optional

import torch


class ModelInput(dict):
    pass


def fill_buffer(buffer: list, next_samples: Callable[[bool], Optional[list[ModelInput]]], size: int):
    restart = False
    while len(buffer) < size:
        samples = next_samples(restart)
        if samples is None:
            break
        buffer.extend(samples)
        restart = True
    return torch.tensor(len(buffer))
