# verify: rule GPU004
# verify: case training-loop
# verify: role bad
# verify: title validate(model) every 5th step calls model.eval(); nothing calls model.train() again
# verify: effect wrong-gradients
# verify: metric stats-change
# verify: steps 30
# verify: steady 5
# verify: expect good > 0
# verify: expect ratio <= 0.01
"""A training loop that validates every fifth step with a helper that
switches the model to eval mode and never back. From the first validation
on, the model trains in eval mode: dropout is off, and batch norm
normalises with its running statistics, which stop updating.

`stats_change` is the norm of what each step changed in the batch norms'
running means and variances (the metric); `training` is model.training
after the step. The parameters still move (`param_change`): nothing fails,
the model just trains differently."""
import torch
import torch.nn.functional as F

from harness import Harness, flat_parameters, flat_running_stats
from models import small_convnet

h = Harness(default_steps=30)
batch = h.fit(256, 1 << 20, dry=64)  # under 1 MB a sample at the peak
model = small_convnet().to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
val_x = torch.randn(batch, 3, 32, 32, device=h.device)
val_y = torch.randint(0, 10, (batch,), device=h.device)


def validate(model):
    model.eval()  # the pitfall: nothing switches it back
    with torch.no_grad():
        return float((model(val_x).argmax(1) == val_y).float().mean())


def step(k):
    stats, params = flat_running_stats(model), flat_parameters(model)
    x = torch.randn(batch, 3, 32, 32, device=h.device)  # a fresh batch, as from a loader
    y = torch.randint(0, 10, (batch,), device=h.device)
    optimizer.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    signals = {"loss": loss.item()}
    if k % 5 == 0:
        signals["accuracy"] = validate(model)
    signals["stats_change"] = float((flat_running_stats(model) - stats).norm())
    signals["param_change"] = float((flat_parameters(model) - params).norm())
    signals["training"] = model.training
    return signals


h.run(step, config={"model": "small_convnet", "batch": batch, "image": 32, "validate_every": 5, "lr": 0.05})
