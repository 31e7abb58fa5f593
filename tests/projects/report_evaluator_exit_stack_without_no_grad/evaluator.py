# Eval mode is entered through an ExitStack, but grad stays on: every
# batch's forward records a graph that the outputs keep alive.
from contextlib import ExitStack

import torch

from context import inference_context


def inference_on_dataset(model: torch.nn.Module, data_loader, evaluator):
    evaluator.reset()
    with ExitStack() as stack:
        stack.enter_context(inference_context(model))
        model.eval()
        for inputs in data_loader:
            outputs = model(inputs)  # expect: GPU103
            evaluator.process(inputs, outputs)
    return evaluator.evaluate()
