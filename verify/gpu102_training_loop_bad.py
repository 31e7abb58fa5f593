# verify: rule GPU102
# verify: case training-loop
# verify: role bad
# verify: title LSTM state fed back undetached, backward() and step() every iteration
# verify: effect crash
# verify: metric crash
# verify: steps 20
# verify: raises Trying to backward through the graph a second time
"""Truncated backpropagation through time without detaching the carried
state: the second backward() reaches into the first iteration's graph, whose
saved tensors the first backward() already freed. It fails at step 2 rather
than growing memory."""
import torch

from harness import Harness

HIDDEN, LAYERS, SEQ = 1024, 2, 35
h = Harness(default_steps=20)
batch = h.fit(32, 64 * SEQ * LAYERS * HIDDEN * 4)
lstm = torch.nn.LSTM(HIDDEN, HIDDEN, LAYERS).to(h.device)
head = torch.nn.Linear(HIDDEN, HIDDEN).to(h.device)
optimizer = torch.optim.SGD(list(lstm.parameters()) + list(head.parameters()), lr=1e-3)
state = None


def step(k):
    global state
    x = torch.randn(SEQ, batch, HIDDEN, device=h.device)
    optimizer.zero_grad()
    out, state = lstm(x, state)  # the pitfall: `state` still carries last iteration's graph
    loss = head(out).pow(2).mean()
    loss.backward()
    optimizer.step()
    return {"loss": loss.item()}


h.run(step, config={"hidden": HIDDEN, "layers": LAYERS, "seq": SEQ, "batch": batch})
