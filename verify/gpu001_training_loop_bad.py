# verify: rule GPU001
# verify: case training-loop
# verify: role bad
# verify: title backward() and step() every iteration, gradients never cleared
# verify: effect wrong-gradients
# verify: metric grad-growth
# verify: steps 40
# verify: expect bad >= 5
# verify: expect good <= 2
# verify: expect alloc-slope bad <= 0.1
"""Missing zero_grad: each backward() adds to the previous gradients, so the
step applies the sum of every gradient so far. Memory stays flat (gradients
accumulate in place); the gradient norm grows with the step count.

Fixed batch, small learning rate: the true gradient barely changes between
steps, so the norm at step k is about k times the first."""
import torch
import torch.nn.functional as F

from harness import Harness, grad_norm, mlp

h = Harness(default_steps=40)
model = mlp(2048, 4).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
x = torch.randn(256, 2048, device=h.device)
y = torch.randn(256, 2048, device=h.device)


def step(k):
    loss = F.mse_loss(model(x), y)
    loss.backward()  # the pitfall: no optimizer.zero_grad() in the loop
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm}


h.run(step, config={"width": 2048, "depth": 4, "batch": 256, "lr": 1e-4})
