# verify: rule GPU101
# verify: case training-loop
# verify: role bad
# verify: title `losses.append(loss)` after backward() and step()
# verify: effect host-growth
# verify: metric graph-nodes
# verify: steps 100
# verify: steady 5
# verify: expect bad >= 5
# verify: expect good <= 0.5
# verify: expect alloc-slope bad <= 0.1
"""A training loop that keeps each loss tensor. backward() has already freed
the saved activations, so device memory stays flat (each kept loss is one
512-byte block); what accumulates is the graph's bookkeeping on the host:
the autograd nodes reachable from the kept tensors.

The loss is cross_entropy on purpose: with F.mse_loss the kept loss also
keeps the model's output on the GPU (8 MB a step here, measured on an H200
with PyTorch 2.11), which would mix a second effect into this case."""
import torch.nn.functional as F
import torch

from harness import Harness, mlp

WIDTH, DEPTH = 4096, 6
h = Harness(default_steps=100)
batch = h.fit(512, 8 * DEPTH * WIDTH * 4)
model = mlp(WIDTH, DEPTH).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
x = torch.randn(batch, WIDTH, device=h.device)
labels = torch.randint(0, WIDTH, (batch,), device=h.device)
losses = []


def step(k):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), labels)
    loss.backward()
    optimizer.step()
    losses.append(loss)  # the pitfall: the loss keeps its graph alive
    return {"loss": loss.item()}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch}, track_graph=True)
