# A whole epoch per call: the cache is emptied once, after the batch loop.
import torch


def train_one_epoch(model, optimizer, loader):
    for src, tgt in loader:
        optimizer.zero_grad()
        model(src, tgt).backward()
        optimizer.step()
    torch.cuda.empty_cache()
