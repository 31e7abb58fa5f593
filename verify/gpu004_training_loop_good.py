# verify: rule GPU004
# verify: case training-loop
# verify: role good
# verify: title model.train() after each validate(model)
"""The fix for gpu004_training_loop_bad.py: the loop switches the model
back to training mode after validating, so batch norm keeps normalising
with the batch's statistics and updating its running ones."""
import torch
import torch.nn.functional as F

from harness import Harness, flat_parameters, flat_running_stats
from models import small_convnet

h = Harness(default_steps=30)
batch = h.fit(256, 1 << 20, dry=64)
model = small_convnet().to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
val_x = torch.randn(batch, 3, 32, 32, device=h.device)
val_y = torch.randint(0, 10, (batch,), device=h.device)


def validate(model):
    model.eval()
    with torch.no_grad():
        return float((model(val_x).argmax(1) == val_y).float().mean())


def step(k):
    stats, params = flat_running_stats(model), flat_parameters(model)
    x = torch.randn(batch, 3, 32, 32, device=h.device)
    y = torch.randint(0, 10, (batch,), device=h.device)
    optimizer.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    signals = {"loss": loss.item()}
    if k % 5 == 0:
        signals["accuracy"] = validate(model)
        model.train()
    signals["stats_change"] = float((flat_running_stats(model) - stats).norm())
    signals["param_change"] = float((flat_parameters(model) - params).norm())
    signals["training"] = model.training
    return signals


h.run(step, config={"model": "small_convnet", "batch": batch, "image": 32, "validate_every": 5, "lr": 0.05})
