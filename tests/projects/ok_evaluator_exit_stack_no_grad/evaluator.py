# The evaluation loop enters eval mode and no_grad through an ExitStack.
from contextlib import ExitStack

import torch

from context import inference_context


def inference_on_dataset(model: torch.nn.Module, data_loader, evaluator):
    evaluator.reset()
    with ExitStack() as stack:
        if isinstance(model, torch.nn.Module):
            stack.enter_context(inference_context(model))
        stack.enter_context(torch.no_grad())
        for inputs in data_loader:
            outputs = model(inputs)
            evaluator.process(inputs, outputs)
    return evaluator.evaluate()
