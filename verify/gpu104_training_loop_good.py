# verify: rule GPU104
# verify: case training-loop
# verify: role good
# verify: title loss.backward()
"""The fix for gpu104_training_loop_bad.py: a plain backward frees the
saved activations as it goes, so only one iteration's are ever alive."""
import torch
import torch.nn.functional as F

from harness import Harness, mlp

WIDTH, DEPTH = 1024, 8
h = Harness(default_steps=20)
batch = h.fit(16384, 96 << 10, dry=64)
model = mlp(WIDTH, DEPTH).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
x = torch.randn(batch, WIDTH, device=h.device)
labels = torch.randint(0, WIDTH, (batch,), device=h.device)
loss = None


def step(k):
    global loss
    optimizer.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), labels)
    loss.backward()
    optimizer.step()
    return {"loss": loss.item()}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch, "lr": 1e-3})
