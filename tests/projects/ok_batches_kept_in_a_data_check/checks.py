# One function trains a tiny model over enumerate(loader); the others only
# collect indices and batches of a loader: data, never a graph.
import torch

from loaders import create_dataloader


def train_a_little(accelerator):
    model = accelerator.prepare(torch.nn.Linear(1, 1))
    loader = create_dataloader(accelerator, 8, 2)
    for batch_idx, batch in enumerate(loader):
        loss = model(batch[0].float()).sum()
        loss.backward()


def batches_after_resume(accelerator, skip=2):
    loader = create_dataloader(accelerator, 32, 4)
    seen, indices = [], []
    for step, batch in enumerate(loader):
        if step > skip:
            seen.append(batch)
            indices.append(step)
    return seen, indices
