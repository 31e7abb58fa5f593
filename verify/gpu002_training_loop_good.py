# verify: rule GPU002
# verify: case training-loop
# verify: role good
# verify: title optimizer.zero_grad() before loss.backward()
"""The fix for gpu002_training_loop_bad.py: gradients cleared before the
backward pass, so the step applies them."""
import torch
import torch.nn.functional as F

from harness import Harness, flat_parameters, grad_norm, mlp

h = Harness(default_steps=30)
model = mlp(2048, 4).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.randn(256, 2048, device=h.device)
y = torch.randn(256, 2048, device=h.device)


def step(k):
    before = flat_parameters(model)
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    change = float((flat_parameters(model) - before).norm())
    return {"loss": loss.item(), "grad_norm": norm, "param_change": change}


h.run(step, config={"width": 2048, "depth": 4, "batch": 256, "lr": 0.05})
