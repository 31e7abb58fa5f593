import torch
from torch.utils.data import DataLoader, TensorDataset


def create_dataloader(accelerator, size, batch_size):
    dataset = TensorDataset(torch.as_tensor(range(size)))
    loader = DataLoader(dataset, batch_size=batch_size)
    return accelerator.prepare(loader)
