# verify: rule GPU101
# verify: case forward-hook
# verify: role bad
# verify: title a forward hook appends its layer's output to a list that is never cleared, in a training loop
# verify: effect gpu-growth
# verify: metric alloc-slope
# verify: steps 30
# verify: steady 5
# verify: expect bad >= 4
# verify: expect good <= 1
"""A training loop with a forward hook on one hidden layer that appends the
layer's output to a list (to inspect activations later, say). The hook runs
on every forward, and the list is never cleared: backward() frees what the
graph saved, but each kept output still holds its own data (batch x width
floats, 8 MB at batch 512 and width 4096) and its graph node, so device
memory grows by one activation per step."""
import torch
import torch.nn.functional as F

from harness import Harness, mlp

WIDTH, DEPTH = 4096, 6
h = Harness(default_steps=30)
batch = h.fit(512, h.steps * WIDTH * 4, dry=8)
model = mlp(WIDTH, DEPTH).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
x = torch.randn(batch, WIDTH, device=h.device)
labels = torch.randint(0, WIDTH, (batch,), device=h.device)
activations = []


def keep_activation(module, inputs, output):
    activations.append(output)  # the pitfall: one output, with its graph node, per forward


model[4].register_forward_hook(keep_activation)


def step(k):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), labels)
    loss.backward()
    optimizer.step()
    return {"loss": loss.item(), "kept": len(activations)}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch})
