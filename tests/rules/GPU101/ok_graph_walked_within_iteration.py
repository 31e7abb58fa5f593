"""Count the graph's nodes each step; the walk's list is rebuilt every iteration."""
import torch


def count_nodes(root):
    seen, stack = set(), [root]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(next_fn for next_fn, _ in fn.next_functions)
    return len(seen)


def train(model, loader, optimizer):
    sizes = []
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        nodes = [loss.grad_fn]
        sizes.append(count_nodes(nodes[0]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return sizes
