# verify: rule GPU401
# verify: case training-loop
# verify: role bad
# verify: title clip_grad_norm_() right after scaler.scale(loss).backward(), no unscale_()
# verify: effect wrong-gradients
# verify: metric param-change
# verify: steps 30
# verify: steady 5
# verify: expect good > 0
# verify: expect ratio <= 0.01
"""Clipping before unscale_: after scaler.scale(loss).backward() the
gradients are multiplied by the scale (65536 at the start), so
clip_grad_norm_ measures a norm 65536 times too large and scales every
gradient down to a norm of max_norm / scale; scaler.step() then divides by
the scale again. Each update ends up tens of thousands of times smaller
than the fixed loop's (SGD: the update is proportional to the gradient).

`grad_norm` is the norm clip_grad_norm_ saw (what it returns); the fixed
twin unscales first, so it sees the true norm."""
import torch
import torch.nn.functional as F

from harness import Harness, flat_parameters, mlp

h = Harness(default_steps=30)
model = mlp(2048, 4).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scaler = torch.amp.GradScaler(h.device.type, enabled=h.cuda)
x = torch.randn(256, 2048, device=h.device)
y = torch.randn(256, 2048, device=h.device)


def step(k):
    before = flat_parameters(model)
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(h.device.type, dtype=torch.float16, enabled=h.cuda):
        loss = F.mse_loss(model(x).float(), y)
    scaler.scale(loss).backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # the pitfall: still scaled
    scaler.step(optimizer)
    scaler.update()
    change = float((flat_parameters(model) - before).norm())
    return {"loss": loss.item(), "grad_norm": float(norm), "param_change": change, "scale": scaler.get_scale()}


h.run(step, config={"width": 2048, "depth": 4, "batch": 256, "lr": 0.05, "max_norm": 1.0, "dtype": "float16"})
