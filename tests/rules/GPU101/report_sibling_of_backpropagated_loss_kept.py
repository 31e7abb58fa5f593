# A step function from outside the project returns the loss and the logits; the loss is backpropagated, so the call
# built a graph, and the logits kept in a list carry it (no name says so: the backward does).
import torch
from trainkit import step_fn

outputs = []
for batch in loader:
    loss, logits = step_fn(net, batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    outputs.append(logits)  # expect: GPU101
    scores = [s for s in logits.argmax(1).tolist()]
