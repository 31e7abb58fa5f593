# verify: rule GPU104
# verify: case kept-losses
# verify: role good
# verify: title loss.backward(), every loss still kept in the list
"""The fix for gpu104_kept_losses_bad.py: the same list of losses with a
plain backward, which frees the saved activations; a kept loss then holds
only the graph's bookkeeping on the host (GPU101's training case)."""
import torch
import torch.nn.functional as F

from harness import Harness, mlp

WIDTH, DEPTH = 1024, 6
h = Harness(default_steps=30)
batch = h.fit(2048, h.steps * DEPTH * WIDTH * 4 * 2, dry=64)
model = mlp(WIDTH, DEPTH).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
x = torch.randn(batch, WIDTH, device=h.device)
labels = torch.randint(0, WIDTH, (batch,), device=h.device)
losses = []


def step(k):
    optimizer.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), labels)
    loss.backward()
    optimizer.step()
    losses.append(loss)
    return {"loss": loss.item()}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch, "lr": 1e-3})
