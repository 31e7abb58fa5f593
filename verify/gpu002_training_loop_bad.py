# verify: rule GPU002
# verify: case training-loop
# verify: role bad
# verify: title optimizer.zero_grad() between loss.backward() and optimizer.step()
# verify: effect wrong-gradients
# verify: metric param-change
# verify: steps 30
# verify: expect good > 0
# verify: expect ratio <= 0.01
"""Gradients cleared after backward() and before step(): the step sees no
gradients (zero_grad sets them to None by default, and SGD skips those), so
the parameters never change and the loss does not fall."""
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
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.zero_grad()  # the pitfall: clears what backward() just computed
    norm = grad_norm(model)
    optimizer.step()
    change = float((flat_parameters(model) - before).norm())
    return {"loss": loss.item(), "grad_norm": norm, "param_change": change}


h.run(step, config={"width": 2048, "depth": 4, "batch": 256, "lr": 0.05})
