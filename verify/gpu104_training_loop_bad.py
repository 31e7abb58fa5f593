# verify: rule GPU104
# verify: case training-loop
# verify: role bad
# verify: title loss.backward(retain_graph=True), the iteration's only backward
# verify: effect peak
# verify: metric peak
# verify: steps 20
# verify: steady 2
# verify: expect ratio >= 1.25
# verify: expect alloc-slope bad <= 0.1
"""A training loop whose only backward retains its graph. Nothing
backpropagates through it again, so the activations it saved stay alive
until `loss` is rebound, after the next iteration's forward: two
iterations' activations are alive at once and the peak rises. Nothing is
kept across more than one iteration, so memory does not grow.

`loss` is a module-level name here, as a loop variable is: it holds the
previous iteration's loss while the next forward runs."""
import torch
import torch.nn.functional as F

from harness import Harness, mlp

WIDTH, DEPTH = 1024, 8
h = Harness(default_steps=20)
batch = h.fit(16384, 96 << 10, dry=64)  # about 80 KB a sample at the peak with the graph retained
model = mlp(WIDTH, DEPTH).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
x = torch.randn(batch, WIDTH, device=h.device)
labels = torch.randint(0, WIDTH, (batch,), device=h.device)
loss = None


def step(k):
    global loss
    optimizer.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), labels)
    loss.backward(retain_graph=True)  # the pitfall: no second backward comes
    optimizer.step()
    return {"loss": loss.item()}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch, "lr": 1e-3})
