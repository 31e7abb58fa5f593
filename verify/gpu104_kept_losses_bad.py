# verify: rule GPU104
# verify: case kept-losses
# verify: role bad
# verify: title loss.backward(retain_graph=True) with every loss kept in a list
# verify: effect gpu-growth
# verify: metric alloc-slope
# verify: steps 30
# verify: steady 5
# verify: expect bad >= 10
# verify: expect good <= 1
"""A retained graph that something keeps: each loss goes into a list (to
average later), and with retain_graph=True each kept loss holds its
graph's saved activations (five ReLU outputs and the log-probabilities,
6 x 8 MB per iteration at batch 2048). Memory grows every step.

The loss is cross_entropy on purpose: with F.mse_loss a kept loss also
keeps the model's output after a plain backward (GPU101's training case),
which would make the fixed twin grow too."""
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
    loss.backward(retain_graph=True)  # the pitfall: the kept loss now holds its activations
    optimizer.step()
    losses.append(loss)
    return {"loss": loss.item()}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch, "lr": 1e-3})
