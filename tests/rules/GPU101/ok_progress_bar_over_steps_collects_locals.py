import torch
from tqdm import tqdm


def unroll(cell, state, inputs, steps):
    """Run the cell over the sequence; the caller backpropagates the stack."""
    outputs = []
    progress = tqdm(range(steps), leave=False)
    for t in progress:
        state = cell(inputs[t], state)
        outputs.append(state)
    return torch.stack(outputs)
