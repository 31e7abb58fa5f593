# The same recovery helper also runs at the end of every batch: the cache
# is emptied on every step, not only after an out-of-memory error.
import torch


def clear_incomplete_state(model, optimizer):
    optimizer.zero_grad(set_to_none=True)
    torch.cuda.empty_cache()  # expect: GPU201


def train(model, optimizer, loader):
    for batch in loader:
        found_oom = 0
        try:
            model(batch.cuda()).mean().backward()
        except RuntimeError:
            found_oom = 1
        if found_oom:
            clear_incomplete_state(model, optimizer)
            continue
        optimizer.step()
        clear_incomplete_state(model, optimizer)
