# verify: rule GPU101
# verify: case training-loop
# verify: role good
# verify: title `losses.append(loss.item())`
"""The fix for gpu101_training_loop_bad.py: keep the number, not the tensor."""
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
    losses.append(loss.item())
    return {"loss": losses[-1]}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch}, track_graph=True)
