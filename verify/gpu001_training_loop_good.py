# verify: rule GPU001
# verify: case training-loop
# verify: role good
# verify: title optimizer.zero_grad() at the start of each iteration
"""The fix for gpu001_training_loop_bad.py: the same loop, gradients cleared
every iteration."""
import torch
import torch.nn.functional as F

from harness import Harness, grad_norm, mlp

h = Harness(default_steps=40)
model = mlp(2048, 4).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
x = torch.randn(256, 2048, device=h.device)
y = torch.randn(256, 2048, device=h.device)


def step(k):
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm}


h.run(step, config={"width": 2048, "depth": 4, "batch": 256, "lr": 1e-4})
