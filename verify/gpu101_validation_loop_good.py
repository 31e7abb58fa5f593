# verify: rule GPU101
# verify: case validation-loop
# verify: role good
# verify: title `total += loss.item()`
"""The fix for gpu101_validation_loop_bad.py: only the number outlives the
iteration."""
import torch.nn.functional as F
import torch

from harness import Harness, mlp

WIDTH, DEPTH = 4096, 6
h = Harness(default_steps=30)
batch = h.fit(512, h.steps * DEPTH * WIDTH * 4)
model = mlp(WIDTH, DEPTH).to(h.device)
x = torch.randn(batch, WIDTH, device=h.device)
y = torch.randn(batch, WIDTH, device=h.device)
total = 0.0


def step(k):
    global total
    loss = F.mse_loss(model(x), y)
    total += loss.item()
    return {"loss": loss.item()}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch})
