# The index that `enumerate` hands out is an int even when the items carry
# a graph, and the loss of each item is kept as a number.
import torch


def score(model, criterion, batches):
    model.eval()
    last_index, total = 0, 0.0
    for source, targets in batches:
        output = model(source)  # expect: GPU103
        for position, (sequence, target) in enumerate(zip(output, targets)):
            last_index += position
            total += criterion(sequence, target).item()
    return last_index, total
