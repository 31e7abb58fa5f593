# verify: rule GPU101
# verify: case grad-fn
# verify: role good
# verify: title `fns.append(type(out.grad_fn).__name__)`
"""The fix for gpu101_grad_fn_bad.py: only the node's name outlives the
iteration (`out.grad_fn.name()` gives it too)."""
import torch

from harness import Harness, mlp

WIDTH, DEPTH = 4096, 6
h = Harness(default_steps=30)
batch = h.fit(512, h.steps * DEPTH * WIDTH * 4, dry=8)
model = mlp(WIDTH, DEPTH).to(h.device)
fns = []


def step(k):
    x = torch.randn(batch, WIDTH, device=h.device)
    out = model(x)
    fns.append(type(out.grad_fn).__name__)
    return {"output_mean": float(out.mean())}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch})
