# verify: rule GPU401
# verify: case training-loop
# verify: role good
# verify: title scaler.unscale_(optimizer) before clip_grad_norm_()
"""The fix for gpu401_training_loop_bad.py: the same loop, with
scaler.unscale_(optimizer) between the scaled backward and the clip, so the
clip sees (and limits) the true gradient norm."""
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
    scaler.unscale_(optimizer)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
    change = float((flat_parameters(model) - before).norm())
    return {"loss": loss.item(), "grad_norm": float(norm), "param_change": change, "scale": scaler.get_scale()}


h.run(step, config={"width": 2048, "depth": 4, "batch": 256, "lr": 0.05, "max_norm": 1.0, "dtype": "float16"})
