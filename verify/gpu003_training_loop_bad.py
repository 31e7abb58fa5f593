# verify: rule GPU003
# verify: case training-loop
# verify: role bad
# verify: title `x.to(device)` of a loader batch as a statement, its result dropped, then model(x) on the GPU
# verify: effect crash
# verify: metric crash
# verify: steps 20
# verify: raises Expected all tensors to be on the same device
"""A batch from a DataLoader (host tensors) moved with `x.to(device)` as a
statement: a tensor is not moved in place, `.to()` returns a new tensor and
the statement drops it, so `x` is still on the host when the model (on the
GPU) runs on it, and the first forward raises the device-mismatch
RuntimeError. On a CPU dry run (`--device cpu`) the model and the batch are
both on the host, so both scripts run every step there: only a GPU shows the
effect."""
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
    x.to(h.device)  # the pitfall: returns a moved copy and drops it; x stays on the host
    y.to(h.device)
    optimizer.zero_grad(set_to_none=True)
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return {"loss": loss.item(), "input_device": str(x.device)}


h.run(step, config={"width": WIDTH, "depth": DEPTH, "batch": batch})
