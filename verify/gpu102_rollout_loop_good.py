# verify: rule GPU102
# verify: case rollout-loop
# verify: role good
# verify: title state = tuple(s.detach() for s in state) each iteration
"""The fix for gpu102_rollout_loop_bad.py: detaching the state frees each
iteration's graph when its output goes."""
import torch

from harness import Harness

HIDDEN, LAYERS, SEQ = 1024, 2, 35
h = Harness(default_steps=30)
batch = h.fit(64, h.steps * SEQ * LAYERS * HIDDEN * 4 * 8)
lstm = torch.nn.LSTM(HIDDEN, HIDDEN, LAYERS).to(h.device)
state = None


def step(k):
    global state
    x = torch.randn(SEQ, batch, HIDDEN, device=h.device)
    out, state = lstm(x, state)
    state = tuple(s.detach() for s in state)
    return {"output_norm": float(out[-1].norm())}


h.run(step, config={"hidden": HIDDEN, "layers": LAYERS, "seq": SEQ, "batch": batch})
