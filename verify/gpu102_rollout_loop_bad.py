# verify: rule GPU102
# verify: case rollout-loop
# verify: role bad
# verify: title LSTM state fed back undetached in a loop with grad on and no backward
# verify: effect gpu-growth
# verify: metric alloc-slope
# verify: steps 30
# verify: steady 5
# verify: expect bad >= 10
# verify: expect good <= 1
"""A rollout (generation, evaluation) loop that feeds the LSTM state back
with grad on and never calls backward(): the state chains every iteration's
graph to the next, so nothing the LSTM saved for backward is ever freed."""
import torch

from harness import Harness

HIDDEN, LAYERS, SEQ = 1024, 2, 35
h = Harness(default_steps=30)
# about 8 KB a step for each (time step, batch row) pair across both layers
batch = h.fit(64, h.steps * SEQ * LAYERS * HIDDEN * 4 * 8)
lstm = torch.nn.LSTM(HIDDEN, HIDDEN, LAYERS).to(h.device)
state = None


def step(k):
    global state
    x = torch.randn(SEQ, batch, HIDDEN, device=h.device)
    out, state = lstm(x, state)  # the pitfall: `state` links this graph to the last
    return {"output_norm": float(out[-1].norm())}


h.run(step, config={"hidden": HIDDEN, "layers": LAYERS, "seq": SEQ, "batch": batch})
