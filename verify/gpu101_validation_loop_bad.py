# verify: rule GPU101
# verify: case validation-loop
# verify: role bad
# verify: title `total += loss` in a loop with grad on and no backward
# verify: effect gpu-growth
# verify: metric alloc-slope
# verify: steps 30
# verify: steady 5
# verify: expect bad >= 10
# verify: expect good <= 1
"""A validation loop without no_grad that sums the loss tensor: `total` keeps
every iteration's graph, and with it the activations each layer saved for a
backward pass that never comes (6 x 8 MB per iteration at batch 512)."""
import torch.nn.functional as F
import torch

from harness import Harness, mlp

WIDTH, DEPTH = 4096, 6
h = Harness(default_steps=30)
batch = h.fit(512, h.steps * DEPTH * WIDTH * 4)
model = mlp(WIDTH, DEPTH).to(h.device)
x = torch.randn(batch, WIDTH, device=h.device)
y = torch.randn(batch, WIDTH, device=h.device)
total = 0


def step(k):
    global total
    loss = F.mse_loss(model(x), y)
    total = total + loss  # the pitfall: a tensor with its graph outlives the iteration
    return {"loss": loss.item()}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch})
