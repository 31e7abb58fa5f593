# Automatic micro-batching: an out-of-memory error sets a flag, and only
# then a recovery helper clears the state, empties the cache and retries
# the batch with smaller micro-batches.
import torch


def clear_incomplete_state(model, optimizer):
    optimizer.zero_grad(set_to_none=True)
    torch.cuda.empty_cache()


def shrink_microbatches(state, model, optimizer):
    state["microbatch"] = max(1, state["microbatch"] // 2)
    clear_incomplete_state(model, optimizer)


def train_batch(model, optimizer, batch, state):
    while True:
        found_oom = 0
        try:
            for chunk in batch.split(state["microbatch"]):
                model(chunk).mean().backward()
        except RuntimeError as error:
            if "out of memory" not in str(error):
                raise
            found_oom = 1
        if found_oom == 1:
            shrink_microbatches(state, model, optimizer)
            continue
        if state.get("alloc_retries", 0) >= 2:
            shrink_microbatches(state, model, optimizer)
            continue
        optimizer.step()
        optimizer.zero_grad()
        return


def train(model, optimizer, loader):
    state = {"microbatch": 64}
    for batch in loader:
        train_batch(model, optimizer, batch.cuda(), state)
