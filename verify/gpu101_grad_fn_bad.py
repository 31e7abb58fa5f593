# verify: rule GPU101
# verify: case grad-fn
# verify: role bad
# verify: title `fns.append(out.grad_fn)` in a loop with grad on and no backward
# verify: effect gpu-growth
# verify: metric alloc-slope
# verify: steps 30
# verify: steady 5
# verify: expect bad >= 10
# verify: expect good <= 1
"""A loop with grad on and no backward that keeps each output's autograd
node (to log the op that produced it, say). The node is the graph: through
its next_functions it reaches every node of the forward pass, and they hold
the tensors each layer saved for a backward that never comes (the batch
and five ReLU outputs, 6 x 8 MB per iteration at batch 512). The output
tensor itself is dropped every iteration."""
import torch

from harness import Harness, mlp

WIDTH, DEPTH = 4096, 6
h = Harness(default_steps=30)
batch = h.fit(512, h.steps * DEPTH * WIDTH * 4, dry=8)
model = mlp(WIDTH, DEPTH).to(h.device)
fns = []


def step(k):
    x = torch.randn(batch, WIDTH, device=h.device)  # a fresh batch, as from a loader
    out = model(x)
    fns.append(out.grad_fn)  # the pitfall: the node keeps the whole graph alive
    return {"output_mean": float(out.mean())}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch})
