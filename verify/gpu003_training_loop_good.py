# verify: rule GPU003
# verify: case training-loop
# verify: role good
# verify: title x = x.to(device): the moved tensor rebound
"""The fix for gpu003_training_loop_bad.py: the batch is rebound to the
tensors `.to()` returns, so the model runs on device-resident inputs. On a
CPU dry run both scripts run every step (everything is on the host)."""
import itertools

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from harness import Harness, mlp

WIDTH, DEPTH = 1024, 4
h = Harness(default_steps=20)
batch = h.fit(256, 8 * WIDTH * 4)
model = mlp(WIDTH, DEPTH).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
dataset = TensorDataset(torch.randn(4 * batch, WIDTH), torch.randn(4 * batch, WIDTH))
data_iter = itertools.cycle(DataLoader(dataset, batch_size=batch, shuffle=True))  # host batches


def step(k):
    x, y = next(data_iter)
    x = x.to(h.device)
    y = y.to(h.device)
    optimizer.zero_grad(set_to_none=True)
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return {"loss": loss.item(), "input_device": str(x.device)}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch})
