# verify: rule GPU102
# verify: case training-loop
# verify: role good
# verify: title state = tuple(s.detach() for s in state) before the next iteration
"""The fix for gpu102_training_loop_bad.py: the state carries values into the
next iteration but not the graph."""
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
    out, state = lstm(x, state)
    loss = head(out).pow(2).mean()
    loss.backward()
    optimizer.step()
    state = tuple(s.detach() for s in state)
    return {"loss": loss.item()}


h.run(step, config={"hidden": HIDDEN, "layers": LAYERS, "seq": SEQ, "batch": batch})
