# One generator update: backward and step, then the cache is emptied, on
# every call; train.py calls it once per batch.
import torch


def generator_step(model, optimizer, src, tgt):
    optimizer.zero_grad()
    loss = model(src, tgt)
    loss.backward()
    optimizer.step()
    del src, tgt
    torch.cuda.empty_cache()  # expect: GPU201
    return loss.item()
