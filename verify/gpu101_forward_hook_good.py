# verify: rule GPU101
# verify: case forward-hook
# verify: role good
# verify: title the same hook, its list cleared once each step has used it
"""The fix for gpu101_forward_hook_bad.py: the step reads what the hook
collected, then clears the list, so at most one forward's outputs are
kept."""
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
    activations.append(output)


model[4].register_forward_hook(keep_activation)


def step(k):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), labels)
    loss.backward()
    optimizer.step()
    active = float((activations[-1] > 0).float().mean())
    activations.clear()
    return {"loss": loss.item(), "active": active}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch})
